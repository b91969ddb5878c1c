// How a `vitest run` of the benchmark ends, seen from outside (a child process): a failed gate prints its table and
// a verdict and fails the exit code without an "Unhandled Error"; JUnit names each block's suite after the block.
import { createServer, type Server } from 'node:net'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture } from '../helpers/package-fixture.ts'
import { runBenchmark, type ChildRun } from '../helpers/run-benchmark.ts'

const BLOCK = 'partnet-final-image'
const BLOCKS = defaultFixtureBlocks(1).map(block => ({ ...block, samples: block.samples.map(s => ({ ...s, partIds: ['a', 'b'] })) }))

let fixture: PackageFixture
let work: string
let run: ChildRun
/** Holds Vitest's default browser port, as another run on the machine would. */
let squatter: Server | undefined
/** Vitest's first browser port (it counts up from here for each browser project). */
const VITEST_BROWSER_PORT = 63315

beforeAll(async () => {
  fixture = await createPackageFixture({ blocks: BLOCKS })
  // Taken already (another run) or taken here: either way the child finds Vitest's default port in use.
  squatter = await new Promise<Server | undefined>((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(undefined))
    server.listen(VITEST_BROWSER_PORT, '127.0.0.1', () => resolve(server))
  })
  work = await mkdtemp(join(tmpdir(), 'awb-run-outcome-'))
  await mkdir(join(work, 'demos', BLOCK), { recursive: true })
  // Part b pushed far away: the sample is scored SR 0. No threshold, so its test passes; only the gate fails.
  await writeFile(join(work, 'demos', BLOCK, 'sample-00.calls.jsonl'), '{"name":"translate_objects","arguments":{"ids":["part-0002"],"delta":[3,0,0]}}\n')
  run = await runBenchmark(['--project', BLOCK, '--reporter=default', '--reporter=junit', `--outputFile.junit=${join(work, 'junit.xml')}`], {
    AWB_BENCHMARK: fixture.root, AWB_DEMONSTRATIONS: join(work, 'demos'), AWB_RUNS: join(work, 'runs'), AWB_SCORING_WORKERS: '1',
    AWB_GATES: JSON.stringify({ blocks: { [BLOCK]: { SR: 1, PA: 0 } } }),
  })
}, 300_000)

afterAll(async () => {
  await new Promise<void>(resolve => (squatter === undefined ? resolve() : squatter.close(() => resolve())))
  await fixture?.cleanup()
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

describe('a run whose tests pass but whose gate fails', () => {
  it('reports each sample\'s scoring queue and compute times', () => {
    expect(run.output).toMatch(/awb partnet-final-image 1\/1 sample-00: .*scoring \d+\.\d\d s: queue \d+\.\d\d s, compute \d+\.\d\d s\)/)
    expect(run.output).toMatch(/of scoring, waiting for the shared scoring pool: median \d+\.\d\d s/)
    expect(run.output).toMatch(/\(cpu-cells scoring\)/)
  })

  it('exits non-zero', () => {
    expect(run.output).toMatch(/Tests\s+1 passed \(1\)/)
    expect(run.code, run.output).toBe(1)
  })

  it('prints the gate table and a one-line verdict, and no Unhandled Error', () => {
    expect(run.output).not.toMatch(/Unhandled Error|Unhandled Rejection|\.vite-temp/)
    expect(run.output).toMatch(/awb gates\n\s+gate\s+measured\s+status\n\s+block partnet-final-image SR ≥ 1\s+0\s+FAILED\n\s+block partnet-final-image PA ≥ 0\s+\S+\s+passed\n/)
    expect(run.output).toMatch(/^awb gates FAILED: 1 of 2 missed: block partnet-final-image SR ≥ 1 \(measured 0\); the run fails \(exit code 1\)$/m)
  })
})

describe('the start of the run', () => {
  it('says that it verifies the package, and when it is done', () => {
    expect(run.output).toMatch(/^awb: verifying package \S+ \(every sample's files\)…$/m)
    expect(run.output).toMatch(/^awb: verified package \S+: 5 samples in \d+\.\d s$/m)
  })
})

describe('the browser servers of the block projects', () => {
  it('start on ports the OS gave as free, never probing ports in use', () => {
    expect(run.output).not.toMatch(/Port \d+ is in use/)
  })
})

describe('the JUnit report of a block project', () => {
  it('names the testsuite and every classname after the block, not after the shared suite file', async () => {
    const junit = await readFile(join(work, 'junit.xml'), 'utf8')
    expect(junit).toMatch(new RegExp(`<testsuite name="${BLOCK}" `))
    expect(junit).toContain(`<testcase classname="${BLOCK}" name="${BLOCK} &gt; sample-00"`)
    expect(junit).not.toContain('benchmark-block')
    // Scoring time split into the wait for the shared scoring pool and the computation; the backend names the kernel.
    expect(junit).toMatch(/<property name="scoring_queue_seconds" value="\d+\.\d{3}">/)
    expect(junit).toMatch(/<property name="scoring_compute_seconds" value="\d+\.\d{3}">/)
    expect(junit).toContain('<property name="scoring_backend" value="cpu-cells">')
  })
})
