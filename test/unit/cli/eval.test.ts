// `awb eval` without --benchmark: the package the runs recorded in run.json, when they all name the same one and it
// is still there; otherwise a usage error that names the run and the fix. A flag still wins.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'
import { runCli } from '../../helpers/run-cli.ts'
import { writeRun } from '../../helpers/run-fixture.ts'

let pkg: PackageFixture
let work: string
beforeAll(async () => {
  pkg = await createPackageFixture({ samplesPerBlock: 1 })
})
afterAll(async () => {
  await pkg?.cleanup()
})
afterEach(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

/**
 * A run with one sample (of `block`) that never saved its world (an error row, no scoring needed), recording `recorded` in run.json
 * as the harness does (`benchmark.local`, run-writer.ts).
 */
async function runOn(name: string, recorded: Record<string, unknown>, block = 'partnet-none'): Promise<string> {
  work ??= await mkdtemp(join(tmpdir(), 'awb-eval-cli-'))
  const dir = await writeRun({
    dir: join(work, name),
    attempts: [{ block, sampleId: 'sample-00', result: { status: 'running', execution: { status: 'pending' }, archive: { status: 'not_saved' } } }],
  })
  const path = join(dir, 'run.json')
  const json = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
  await writeFile(path, JSON.stringify({ ...json, ...recorded }))
  return dir
}

const recordedOn = (root: string) => ({ benchmark: { local: root, frozen_release: false, revision: null } })

describe('awb eval --benchmark default', () => {
  it('scores on the package every run recorded when no --benchmark is given', async () => {
    work = await mkdtemp(join(tmpdir(), 'awb-eval-cli-'))
    const first = await runOn('a', recordedOn(pkg.root))
    const second = await runOn('b', { options: { benchmark: pkg.root } }, 'ikea-manualbook')
    const output = join(work, 'out')
    const { code, stderr } = await runCli(['eval', first, second, '--output', output, '--backend', 'cpu', '--workers', '0'])
    expect(stderr).not.toContain('--benchmark')
    // Every attempt is an error row (nothing saved), so exit 1, but the outputs were written on the recorded package.
    expect(code).toBe(1)
    expect(JSON.stringify(JSON.parse(await readFile(join(output, 'eval.json'), 'utf8')))).toContain(JSON.stringify(pkg.root))
  })

  it('refuses runs recorded on different packages, naming each, unless --benchmark says which', async () => {
    work = await mkdtemp(join(tmpdir(), 'awb-eval-cli-'))
    const first = await runOn('a', recordedOn(pkg.root))
    const second = await runOn('b', recordedOn(join(work, 'other-package')), 'ikea-manualbook')
    const refused = await runCli(['eval', first, second, '--output', join(work, 'out')])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('the runs were made on different packages')
    expect(refused.stderr).toContain(`${first}: ${pkg.root}`)
    expect(refused.stderr).toContain(`${second}: ${join(work, 'other-package')}`)
    expect(refused.stderr).toContain('pass --benchmark <package-dir>')
    const flagged = await runCli(['eval', first, second, '--benchmark', pkg.root, '--output', join(work, 'out'), '--backend', 'cpu', '--workers', '0'])
    expect(flagged.code).toBe(1)
    expect(flagged.stderr).toMatch(/\(0\/2 scored/)
  })

  it('says the recorded package is gone, or that a run records none, and how to go on', async () => {
    work = await mkdtemp(join(tmpdir(), 'awb-eval-cli-'))
    const moved = await runOn('moved', recordedOn(join(work, 'moved-away')))
    const gone = await runCli(['eval', moved, '--output', join(work, 'out')])
    expect(gone.code).toBe(2)
    expect(gone.stderr).toBe(`awb: eval: the package the runs recorded, ${join(work, 'moved-away')}, is gone; pass --benchmark <package-dir> where it now lies\n`)
    const bare = await runOn('bare', {})
    const none = await runCli(['eval', bare, '--output', join(work, 'out')])
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/records no benchmark package in run\.json; pass --benchmark <package-dir>/)
  })
})
