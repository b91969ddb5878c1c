// Page-written reports are display only: a real run (child `vitest run`, real Chromium) whose tester page forges its
// tests' outcomes (test/integration/forged-reports/forging-setup.ts: thresholds dropped, a sample that never ran
// reported as recorded with SR 1). Node's ledger decides every verdict, row and JUnit property, and the run fails.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture } from '../helpers/package-fixture.ts'
import { runBenchmark, type ChildRun } from '../helpers/run-benchmark.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BLOCK = 'partnet-none'
const BLOCKS = defaultFixtureBlocks(2).filter(block => block.name === BLOCK)

let fixture: PackageFixture
let work: string
let run: ChildRun

beforeAll(async () => {
  fixture = await createPackageFixture({ blocks: BLOCKS })
  work = await mkdtemp(join(tmpdir(), 'awb-forged-'))
  // The benchmark's config plus a setup file in every project: it runs in the tester page, before the block suite.
  const config = join(work, 'vitest.config.ts')
  await writeFile(config, [
    `import { defineConfig } from 'vitest/config'`,
    `import { assemblyWorld } from ${JSON.stringify(join(ROOT, 'plugin', 'index.ts'))}`,
    `export default defineConfig({ root: ${JSON.stringify(ROOT)}, plugins: [assemblyWorld()], test: { setupFiles: [${JSON.stringify(join(ROOT, 'test', 'integration', 'forged-reports', 'forging-setup.ts'))}] } })`,
  ].join('\n'))
  run = await runBenchmark(['--config', config, '--project', BLOCK, '--reporter=default', '--reporter=junit', `--outputFile.junit=${join(work, 'junit.xml')}`], {
    AWB_BENCHMARK: fixture.root, AWB_AGENT: 'idle', AWB_RUNS: join(work, 'runs'), AWB_SCORING_WORKERS: '1',
    // The idle agent leaves the scattered parts: SR 0 is below this threshold.
    AWB_THRESHOLDS: JSON.stringify({ [BLOCK]: { SR: 1 } }),
  })
}, 300_000)

afterAll(async () => {
  await fixture?.cleanup()
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

async function runDir(): Promise<string> {
  const match = /awb: wrote (\S+)\/summary\.json/.exec(run.output)
  expect(match, run.output).not.toBeNull()
  return match![1]!
}

describe('a tester page that forges its tests\' outcomes', () => {
  it('fails the run, naming each contradiction', () => {
    expect(run.code, run.output).toBe(1)
    expect(run.output).toContain(`awb integrity: ${BLOCK} / sample-00 reported a pass, but Node's record fails it: SR of ${BLOCK} / sample-00 is 0 (threshold 1)`)
    expect(run.output).toContain(`awb integrity: ${BLOCK} / sample-01 reported a pass, but Node recorded no attempt of it`)
    expect(run.output).toMatch(/Tests\s+2 failed \(2\)/)
  })

  it('writes JUnit from Node\'s record: both tests failed, the figures Node scored', async () => {
    const junit = await readFile(join(work, 'junit.xml'), 'utf8')
    expect(junit).toMatch(/<testsuite name="partnet-none"[^>]*failures="2"/)
    expect(junit).toContain('<property name="SR" value="0">')
    expect(junit).not.toContain('<property name="SR" value="1">')
    expect(junit).not.toContain('forged')
  })

  it('makes rows only of what Node recorded, and records the contradictions in run.json', async () => {
    const dir = await runDir()
    const rows = (await readFile(join(dir, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { sample_id: string; SR: number })
    expect(rows.map(row => [row.sample_id, row.SR])).toEqual([['sample-00', 0]])
    const runJson = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as { status: string; errors: string[] }
    expect(runJson.status).toBe('failed')
    expect(runJson.errors.join('\n')).toContain('sample-01 reported a pass, but Node recorded no attempt of it')
  })
})
