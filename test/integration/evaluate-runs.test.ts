import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decodeEpisode, encodeEpisode } from '../../src/episode/index.ts'
import { evaluateRuns } from '../../src/evaluate/evaluate-runs.ts'
import { createScorer, type SampleScorer } from '../../src/evaluate/index.ts'
import { tableFromIPC } from 'apache-arrow'
import { RunError } from '../../src/runs/index.ts'
import { runCli } from '../helpers/run-cli.ts'
import { recordSetObjectPose } from '../helpers/episode-fixture.ts'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture } from '../helpers/package-fixture.ts'
import { COMPLETED_RESULT, writeRun, type FixtureAttempt } from '../helpers/run-fixture.ts'

const TASK = 'Assemble.\n'
const BLOCKS = defaultFixtureBlocks(1).map(block => ({ ...block, samples: block.samples.map(s => ({ ...s, partIds: ['a', 'b'] })) }))
const SAMPLE = 'sample-00'

let fixture: PackageFixture
let scorer: SampleScorer
let logs: string
let work: string

beforeEach(async () => {
  fixture = await createPackageFixture({ blocks: BLOCKS, taskText: TASK })
  scorer = createScorer({ workers: 0 })
  work = await mkdtemp(join(tmpdir(), 'awb-eval-'))
  logs = join(work, 'logs')
  await mkdir(logs)
})
afterEach(async () => {
  await scorer.close()
  await fixture.cleanup()
  await rm(work, { recursive: true, force: true })
})

let outputs = 0
/** A fresh output path outside the runs and the package. */
const newOutput = () => join(work, `eval-${++outputs}`)

/** The sample's initial episode, optionally with part `b` moved, re-encoded as a final episode. */
async function finalEpisode(block: string, move?: [number, number, number]): Promise<Uint8Array> {
  const episode = await decodeEpisode(await readFile(fixture.path(fixture.rel.episode(block, SAMPLE))))
  recordSetObjectPose(episode, 2, move ?? [0, 0, 0])
  return encodeEpisode(episode)
}

async function completeAttempts(): Promise<FixtureAttempt[]> {
  return Promise.all(BLOCKS.map(async block => ({ block: block.name, sampleId: SAMPLE, finalEpisode: await finalEpisode(block.name) })))
}

async function run(name: string, attempts: FixtureAttempt[], extra: { tasks?: Record<string, string> } = {}) {
  const tasks = extra.tasks ?? Object.fromEntries(BLOCKS.map(b => [b.name, TASK]))
  return writeRun({ dir: join(logs, name), attempts, tasks, referenceModes: Object.fromEntries(BLOCKS.map(b => [b.name, b.referenceMode])) })
}

describe('evaluateRuns', () => {
  it('scores a complete run set into metrics.jsonl and summary.json with the official overall', async () => {
    const runDir = await run('complete', await completeAttempts())
    const output = newOutput()
    const { rows, summary } = await evaluateRuns({ runDirs: [runDir], packageDir: fixture.root, outputDir: output, scorer })
    expect(rows.map(r => [r.block, r.status, r.SR])).toEqual([...BLOCKS.map(b => [b.name, 'scored', 1])].sort())
    expect(rows[0]).toMatchObject({ protocol_version: 'assembly-evaluation-v1', state_index: 1, run: runDir, tool_calls: 3, duration_seconds: 12.5, attempt_finished: true })
    expect(rows[0]!.alignment).toHaveProperty('candidates')
    expect(summary).toMatchObject({ status: 'complete', attempted: 5, expected: 5, scored: 5, official_overall: { PA: 1, SR: 1 } })
    expect(Object.keys(summary.sources ?? {})).toEqual(['partnet', 'ikea-manualbook', 'assemblybench-manualbook', 'fantastic-breaks-none'])
    const lines = (await readFile(join(output, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line))
    expect(lines.map(l => l.block)).toEqual(rows.map(r => r.block))
    expect(JSON.parse(await readFile(join(output, 'summary.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(summary)))
  })

  it('hands the scorer as many samples at once as it takes, keeps the selection order, and records the backend in eval.json', async () => {
    const runDir = await run('order', await completeAttempts())
    const expected = (await evaluateRuns({ runDirs: [runDir], packageDir: fixture.root, outputDir: newOutput(), scorer, concurrency: 1 })).rows
    const progress: string[] = []
    const output = newOutput()
    let peak = 0
    let inFlight = 0
    let started = 0
    const SAMPLES = 5
    const waiting: (() => void)[] = []
    // A scorer wrapper that holds each score until as many are in flight as the scorer takes (or every sample has
    // started): a barrier, not a delay, so the peak is the same on a loaded machine. A runner that never hands over
    // three at once would hold here until the test's time limit, and fail.
    const barrier = async (): Promise<void> => {
      if (inFlight >= 3 || started === SAMPLES) {
        for (const release of waiting.splice(0)) release()
        return
      }
      await new Promise<void>(release => waiting.push(release))
    }
    const counting: SampleScorer = {
      get backend() { return scorer.backend },
      get decision() { return scorer.decision },
      samplesAtOnce: 3,
      workers: scorer.workers,
      kernel: scorer.kernel,
      start: () => scorer.start(),
      chooseBackend: () => scorer.chooseBackend(),
      close: () => scorer.close(),
      score: async (input, options) => {
        peak = Math.max(peak, ++inFlight)
        started++
        await barrier()
        try { return await scorer.score(input, options) } finally { inFlight-- }
      },
    }
    const { rows } = await evaluateRuns({
      runDirs: [runDir], packageDir: fixture.root, outputDir: output, scorer: counting,
      onRow: (row, done, total) => progress.push(`${done}/${total}`),
      extraFiles: finished => ({ 'count.bin': new Uint8Array([finished.length]) }),
    })
    expect(peak).toBe(3)
    expect(scorer.samplesAtOnce).toBe(1)
    expect(JSON.stringify(rows)).toBe(JSON.stringify(expected))
    expect(progress).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5'])
    expect((await readdir(output)).sort()).toEqual(['count.bin', 'eval.json', 'metrics.jsonl', 'summary.json'])
    expect([...await readFile(join(output, 'count.bin'))]).toEqual([5])
    const record = JSON.parse(await readFile(join(output, 'eval.json'), 'utf8'))
    expect(record).toMatchObject({
      protocol: 'assembly-evaluation-v1', benchmark: fixture.root, runs: [runDir],
      scoring: { backend: 'cpu-cells', kernel: 'cells', workers: 0, decision: { backend: 'cpu', reason: expect.stringMatching(/no GPU device node|gpu\.js is not installed|requested/) } },
      versions: { 'assembly-world-bench': expect.any(String) },
    })
  })

  it('keeps going past broken samples: failed geometry, a foreign world, an unfinished attempt, a changed task', async () => {
    const attempts = await completeAttempts()
    attempts[1] = { block: 'partnet-final-image', sampleId: SAMPLE, finalEpisode: await finalEpisode('partnet-final-image', [3, 0, 0]) }
    const foreign = await decodeEpisode(await finalEpisode('ikea-manualbook'))
    foreign.world.set('world/meshes/part-0002.obj', new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n'))
    attempts[2] = { block: 'ikea-manualbook', sampleId: SAMPLE, finalEpisode: await encodeEpisode(foreign) }
    attempts[3] = { block: 'assemblybench-manualbook', sampleId: SAMPLE, result: { status: 'running', execution: { status: 'pending' }, archive: { status: 'not_saved' } } }
    const first = await run('first', attempts.slice(0, 4))
    const second = await run('second', [attempts[4]!], { tasks: { 'fantastic-breaks-none': 'Something else.\n' } })
    const output = newOutput()
    const { rows, summary } = await evaluateRuns({ runDirs: [first, second], packageDir: fixture.root, outputDir: output, scorer })
    const byBlock = Object.fromEntries(rows.map(r => [r.block, r]))
    expect(byBlock['partnet-none']).toMatchObject({ status: 'scored', SR: 1 })
    expect(byBlock['partnet-final-image']).toMatchObject({ status: 'scored', SR: 0 })
    expect(byBlock['ikea-manualbook']).toMatchObject({ status: 'error', SCD: null, PA: 0, SR: 0, error: expect.stringMatching(/^EvaluateError: .*part-0002\.obj is not byte-identical/) })
    expect(byBlock['assemblybench-manualbook']).toMatchObject({ status: 'error', attempt_finished: false, error: expect.stringMatching(/Latest attempt is unfinished/) })
    expect(byBlock['fantastic-breaks-none']).toMatchObject({ status: 'error', error: expect.stringMatching(/Run task differs from official task/) })
    expect(summary).toMatchObject({ status: 'partial', attempted: 5, scored: 2, official_overall: null })
  })

  it('refuses an output directory that exists or lies inside a run, and leaves it untouched', async () => {
    const runDir = await run('one', [{ block: 'partnet-none', sampleId: SAMPLE, finalEpisode: await finalEpisode('partnet-none') }])
    const existing = join(logs, 'existing')
    await mkdir(existing)
    await writeFile(join(existing, 'keep.txt'), 'earlier results')
    await expect(evaluateRuns({ runDirs: [runDir], packageDir: fixture.root, outputDir: existing, scorer })).rejects.toMatchObject({ code: 'RUN_OUTPUT_EXISTS' })
    expect(await readdir(existing)).toEqual(['keep.txt'])
    await expect(evaluateRuns({ runDirs: [runDir], packageDir: fixture.root, outputDir: join(runDir, 'eval'), scorer })).rejects.toBeInstanceOf(RunError)
    await expect(evaluateRuns({ runDirs: [runDir], packageDir: fixture.root, outputDir: join(fixture.root, 'eval'), scorer })).rejects.toMatchObject({ code: 'RUN_OUTPUT_INSIDE_INPUT' })
  })

  it('rejects a final archive whose hash differs from result.json', async () => {
    const runDir = await run('hash', [{ block: 'partnet-none', sampleId: SAMPLE, finalEpisode: await finalEpisode('partnet-none'), result: { ...COMPLETED_RESULT, archive: { status: 'saved', sha256: '0'.repeat(64) } } }])
    const { rows } = await evaluateRuns({ runDirs: [runDir], packageDir: fixture.root, outputDir: newOutput(), scorer })
    expect(rows[0]).toMatchObject({ status: 'error', error: expect.stringMatching(/archive\.sha256 records 0{64}/) })
  })

  it.each([
    ['a block', { 'other-block': [SAMPLE] }, /selects block "other-block", which is not in the package/],
    ['a sample', { 'partnet-none': [SAMPLE, 'sample-99'] }, /selects "sample-99" in block partnet-none, not in the package/],
  ])('fails when run.json selects %s that the package does not have, writing nothing', async (_label, selection, message) => {
    const runDir = await run('foreign', [{ block: 'partnet-none', sampleId: SAMPLE, finalEpisode: await finalEpisode('partnet-none') }])
    const runJson = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8')) as Record<string, unknown>
    await writeFile(join(runDir, 'run.json'), JSON.stringify({ ...runJson, selection }))
    const output = newOutput()
    await expect(evaluateRuns({ runDirs: [runDir], packageDir: fixture.root, outputDir: output, scorer })).rejects.toMatchObject({ code: 'EVALUATE_RUN_MISMATCH', message: expect.stringMatching(message) })
    await expect(readdir(output)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})

describe('awb eval', () => {
  it('writes metrics.jsonl, metrics.arrow (the same rows), summary.json and eval.json in one step, naming the backend', async () => {
    const attempts = await completeAttempts()
    attempts[1] = { block: 'partnet-final-image', sampleId: SAMPLE, result: { status: 'running', execution: { status: 'pending' }, archive: { status: 'not_saved' } } }
    const runDir = await run('cli', attempts)
    const output = newOutput()
    const { code, stdout, stderr } = await runCli(['eval', runDir, '--benchmark', fixture.root, '--output', output, '--backend', 'cpu', '--workers', '0'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/\(4\/5 scored, partial; scoring backend cpu-cells: requested \(--backend cpu\)\)/)
    expect(JSON.parse(stdout)).toMatchObject({ status: 'partial', scored: 4 })
    expect((await readdir(output)).sort()).toEqual(['eval.json', 'metrics.arrow', 'metrics.jsonl', 'summary.json'])
    const lines = (await readFile(join(output, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { sample_id: string; status: string; SCD: number | null })
    const table = tableFromIPC(await readFile(join(output, 'metrics.arrow')))
    expect(table.toArray().map(r => [r.sample_id, r.status, r.SCD])).toEqual(lines.map(l => [l.sample_id, l.status, l.SCD]))
    expect(JSON.parse(await readFile(join(output, 'eval.json'), 'utf8')).scoring).toMatchObject({ backend: 'cpu-cells', workers: 0, decision: { choice: 'cpu', backend: 'cpu' } })
  })
})
