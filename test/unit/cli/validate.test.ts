import { mkdtemp, rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'
import { runCli } from '../../helpers/run-cli.ts'

const fixtures: PackageFixture[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  for (const fixture of fixtures.splice(0)) await fixture.cleanup()
})

describe('awb validate', () => {
  it('exits 0 on a clean package and prints a summary line', async () => {
    const fixture = await createPackageFixture()
    fixtures.push(fixture)
    const { code, stdout } = await runCli(['validate', fixture.root])
    expect(code).toBe(0)
    expect(stdout).not.toContain('error [')
    expect(stdout.trim().split('\n').at(-1)).toMatch(/: ok, \d+ warnings \(5 blocks, 10 samples, 10 pages; not the frozen release; protocol assembly-evaluation-v1\)$/)
  })

  it('exits 1 on a broken package and lists every problem, one per line', async () => {
    const fixture = await createPackageFixture()
    fixtures.push(fixture)
    await fixture.writeBytes(fixture.rel.episode('partnet-none', 'sample-00'), 'corrupt')
    await fixture.writeBytes(fixture.rel.task('ikea-manualbook'), 'changed')
    await fixture.writeBytes(fixture.rel.page('assemblybench-manualbook', 'sample-01', 1), 'changed')
    const { code, stdout } = await runCli(['validate', fixture.root])
    expect(code).toBe(1)
    const errors = stdout.split('\n').filter(line => line.startsWith('error ['))
    expect(errors).toHaveLength(3)
    expect(errors.join('\n')).toContain(fixture.rel.episode('partnet-none', 'sample-00'))
    expect(errors.join('\n')).toContain(fixture.rel.task('ikea-manualbook'))
    expect(errors.join('\n')).toContain(fixture.rel.page('assemblybench-manualbook', 'sample-01', 1))
    expect(stdout).toContain(': 3 problems,')
  })

  it('prints one parsable JSON report with --json', async () => {
    const fixture = await createPackageFixture()
    fixtures.push(fixture)
    await fixture.writeBytes(fixture.rel.episode('partnet-none', 'sample-01'), 'corrupt')
    const { code, stdout } = await runCli(['validate', fixture.root, '--json'])
    expect(code).toBe(1)
    const report = JSON.parse(stdout) as { ok: boolean; problems: { code: string; file: string }[]; counts: { samples: number } }
    expect(report.ok).toBe(false)
    expect(report.problems).toEqual([expect.objectContaining({ code: 'PACKAGE_HASH_MISMATCH', file: fixture.rel.episode('partnet-none', 'sample-01') })])
    expect(report.counts.samples).toBe(10)
  })

  it('exits 2 with a clear message when the directory does not exist', async () => {
    const missing = join(tmpdir(), 'awb-validate-no-such-dir')
    const { code, stderr } = await runCli(['validate', missing])
    expect(code).toBe(2)
    expect(stderr).toContain(`package directory not found: ${missing}`)
  })

  it('exits 2 saying it cannot read a directory it may not reach, not that it does not exist', async () => {
    // A link to itself fails with ELOOP even for root, who ignores permission bits.
    const dir = await mkdtemp(join(tmpdir(), 'awb-validate-loop-'))
    const loop = join(dir, 'package')
    await symlink(loop, loop)
    try {
      const { code, stderr } = await runCli(['validate', loop])
      expect(code).toBe(2)
      expect(stderr).toMatch(new RegExp(`cannot read the package directory ${loop} \\(ELOOP.*\\); check its permissions`))
      expect(stderr).not.toContain('not found')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('without a directory checks AWB_BENCHMARK (the package a run would use): a missing one is a usage error naming it', async () => {
    vi.stubEnv('AWB_BENCHMARK', '/nonexistent/awb-package')
    try {
      const { code, stderr } = await runCli(['validate'])
      expect(code).toBe(2)
      expect(stderr).toContain('package directory not found: /nonexistent/awb-package')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('decodes and compiles every episode: a recorded run, a broken world and a bad state size are problems', async () => {
    const fixture = await createPackageFixture({
      edit: {
        episode: (block, sampleId, episode) => {
          if (block !== 'ikea-manualbook') return
          if (sampleId === 'sample-00') episode.manifest.lifecycle = 'active'
          if (sampleId === 'sample-01') episode.world.set('world/model.xml', new TextEncoder().encode('<mujoco><worldbody>'))
        },
      },
    })
    fixtures.push(fixture)
    const { code, stdout } = await runCli(['validate', fixture.root, '--json'])
    expect(code).toBe(1)
    const report = JSON.parse(stdout) as { problems: { code: string; message: string }[] }
    const messages = report.problems.map(problem => problem.message)
    expect(messages).toEqual([
      expect.stringMatching(/sample-00\.episode\.zip.*lifecycle "setup", not "active"/),
      expect.stringMatching(/sample-01\.episode\.zip.*could not compile world\/model\.xml/),
    ])
  })
})
