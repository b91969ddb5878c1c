// The aggregate reporter without Vitest: a missed gate prints its table and verdict and sets the exit code without
// throwing; every row, figure and verdict comes from Node's ledger, and a page report it contradicts fails the run.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestCase, Vitest } from 'vitest/node'
import { AggregateReporter } from '../../../reporters/aggregate-reporter.ts'
import { SampleLedger, type LedgerEntry, type Thresholds } from '../../../src/harness/node/index.ts'
import { scoredRow } from '../../helpers/metrics-rows.ts'

const LAYOUT = { sources: ['s'], blocks: [{ name: 'b', source: 's', sampleIds: ['x', 'y'] }] }
const TIMINGS = { openMs: 1, agentMs: 2, exportMs: 1, saveMs: 1, scoreMs: 30, scoreQueueMs: 10, scoreComputeMs: 15 }

let dir: string
let exitCode: typeof process.exitCode

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'awb-aggregate-'))
  exitCode = process.exitCode
})
afterEach(async () => {
  process.exitCode = exitCode
  await rm(dir, { recursive: true, force: true })
})

function reporter(gates: ConstructorParameters<typeof AggregateReporter>[0]['gates'], thresholds: Thresholds = {}, unsandboxed?: string, attachments?: ConstructorParameters<typeof AggregateReporter>[0]['attachments']) {
  const printed: string[] = []
  const closed: { status: string; errors: readonly string[] }[] = []
  const ledger = new SampleLedger()
  const instance = new AggregateReporter({
    layout: LAYOUT,
    gates,
    thresholds: () => thresholds,
    runsRoot: dir,
    protocol: 'assembly-evaluation-v1',
    outputs: { curves: false, baseline: undefined, report: false, scoringBackend: 'cpu' },
    stepSummary: undefined,
    runDir: async () => dir,
    ledger: async () => ledger,
    unsandboxed,
    attachments,
    close: async (status, errors) => { closed.push({ status, errors }) },
  })
  // Only the logger of the Vitest instance is used.
  instance.onInit({ logger: { log: (text: string) => printed.push(text) } } as unknown as Vitest)
  return { instance, printed, closed, ledger }
}

/** What Node records of a scored sample (the ledger entry), as BenchmarkSession does. */
function recorded(ledger: SampleLedger, sampleId: string, scores: { SR: number; PA: number; SCD: number }, failure: string | null = null): LedgerEntry {
  const entry = { row: scoredRow({ block: 'b', sample_id: sampleId, ...scores }), timings: TIMINGS, backend: 'cpu-cells', runDir: dir, sampleDir: join(dir, sampleId), failure }
  ledger.record('b', sampleId, entry)
  return entry
}

interface FakeTask { name: string; meta: Record<string, unknown>; annotations: Array<{ type: string; message: string }>; result: { state: string; errors?: unknown[] } }

/** A block test as Vitest hands it to reporters: its project provides the block; `task` is what the page reported. */
function testCase(sampleId: string, page: { state: 'pass' | 'fail' | 'skip'; awb?: unknown; annotations?: Array<{ type: string; message: string }> }): TestCase & { task: FakeTask } {
  const task: FakeTask = { name: sampleId, meta: page.awb === undefined ? {} : { awb: page.awb }, annotations: page.annotations ?? [], result: { state: page.state } }
  const states = { pass: 'passed', fail: 'failed', skip: 'skipped' } as const
  return {
    name: sampleId,
    fullName: `b > ${sampleId}`,
    project: { getProvidedContext: () => ({ awbBlock: { name: 'b' } }) },
    task,
    meta: () => task.meta,
    result: () => ({ state: task.result.state === 'fail' ? 'failed' : states[page.state] }),
  } as unknown as TestCase & { task: FakeTask }
}

/** The page's honest report of a recorded sample: Node's row, passed or failed as the suite asserts. */
function honest(entry: LedgerEntry, state: 'pass' | 'fail' = 'pass') {
  return { state, awb: { row: entry.row, timings: entry.timings, backend: entry.backend, runDir: entry.runDir } }
}

describe('AggregateReporter', () => {
  it('prints the gate table and the verdict of a missed gate and fails the exit code, without throwing', async () => {
    const { instance, printed, closed, ledger } = reporter({ blocks: { b: { SR: 1 } } })
    await instance.onTestCaseResult(testCase('x', honest(recorded(ledger, 'x', { SR: 1, PA: 1, SCD: 0 }))))
    await instance.onTestCaseResult(testCase('y', honest(recorded(ledger, 'y', { SR: 0, PA: 0.5, SCD: 1 }))))
    process.exitCode = undefined
    await expect(instance.onTestRunEnd([], [])).resolves.toBeUndefined()
    expect(process.exitCode).toBe(1)
    const output = printed.join('\n')
    expect(output).toContain('awb b 2/2 y: SR 0  PA 0.500  SCD 1.00 (overhead 0.00 s, agent 0.00 s, scoring 0.03 s: queue 0.01 s, compute 0.01 s)')
    expect(output).toMatch(/awb gates\n\s+gate\s+measured\s+status\n\s+block b SR ≥ 1\s+0\.5\s+FAILED\nawb gates FAILED: 1 of 1 missed: block b SR ≥ 1 \(measured 0\.5\)/)
    expect(closed).toEqual([{ status: 'failed', errors: [] }])
  })

  it('leaves the exit code alone when every gate is met', async () => {
    const { instance, printed, closed, ledger } = reporter({ blocks: { b: { PA: 0.5, SR: 0.5 } } })
    await instance.onTestCaseResult(testCase('x', honest(recorded(ledger, 'x', { SR: 1, PA: 1, SCD: 0 }))))
    await instance.onTestCaseResult(testCase('y', honest(recorded(ledger, 'y', { SR: 1, PA: 0.5, SCD: 1 }))))
    process.exitCode = undefined
    await instance.onTestRunEnd([], [])
    expect(process.exitCode).toBeUndefined()
    expect(printed.join('\n')).toMatch(/awb gates passed: 2 of 2 met/)
    expect(closed).toEqual([{ status: 'completed', errors: [] }])
  })

  it('does not count a gate that could not be measured as met', async () => {
    const { instance, printed, ledger } = reporter({ overall: { PA: 0.5 } })
    await instance.onTestCaseResult(testCase('x', honest(recorded(ledger, 'x', { SR: 1, PA: 1, SCD: 0 }))))
    process.exitCode = undefined
    await instance.onTestRunEnd([], [])
    // Only one of the block's two samples ran: no official overall, so the overall gate is not measured.
    expect(printed.join('\n')).toMatch(/awb gates passed: 0 of 1 met \(1 not measured\)/)
  })

  it('fails a pass that Node\'s record does not support, and writes Node\'s row over the forged one', async () => {
    const { instance, printed, closed, ledger } = reporter({ blocks: { b: { SR: 1 } } }, { SR: 1 })
    const entry = recorded(ledger, 'x', { SR: 0, PA: 0.25, SCD: 2 })
    // The page claims SR 1 and a pass, with annotations to match, and a picture of a perfect assembly.
    const picture = { contentType: 'image/png', body: 'Zm9yZ2Vk' }
    const forged = { ...honest(entry), awb: { ...honest(entry).awb, row: { ...entry.row, SR: 1, PA: 1 } }, annotations: [{ type: 'SR', message: '1' }, { type: 'note', message: 'the page wrote this' }, { type: 'final_capture', message: 'perfect', attachment: picture }] }
    const test = testCase('x', forged)
    await instance.onTestCaseResult(test)
    process.exitCode = undefined
    await instance.onTestRunEnd([], [])
    expect(test.task.result.state).toBe('fail')
    expect(JSON.stringify(test.task.result.errors)).toContain('SR of b / x is 0 (threshold 1)')
    expect((test.task.meta.awb as { row: { SR: number } }).row.SR).toBe(0)
    expect(test.task.annotations).toContainEqual({ type: 'SR', message: '0' })
    expect(test.task.annotations).not.toContainEqual({ type: 'SR', message: '1' })
    // Nothing the page annotated is left: Vitest's UI and html reporter show Node's account only.
    expect(test.task.annotations.filter(annotation => annotation.type === 'note' || (annotation as { attachment?: unknown }).attachment !== undefined)).toEqual([])
    expect(process.exitCode).toBe(1)
    expect(printed.join('\n')).toContain('awb integrity: b / x reported a pass, but Node\'s record fails it')
    expect(closed[0]?.status).toBe('failed')
    expect(closed[0]?.errors.join('\n')).toContain('b / x reported a pass')
    // The summary counts Node's row: the block gate sees SR 0.
    expect(printed.join('\n')).toMatch(/block b SR ≥ 1\s+0\s+FAILED/)
  })

  it('fails a pass of a sample Node never recorded, and makes no row of it', async () => {
    const { instance, printed, closed } = reporter({})
    const test = testCase('x', { state: 'pass', awb: { row: scoredRow({ block: 'b', sample_id: 'x', SR: 1, PA: 1, SCD: 0 }), timings: TIMINGS, backend: 'cpu-cells', runDir: dir } })
    await instance.onTestCaseResult(test)
    process.exitCode = undefined
    await instance.onTestRunEnd([], [])
    expect(test.task.result.state).toBe('fail')
    expect(test.task.meta.awb).toBeUndefined()
    expect(process.exitCode).toBe(1)
    expect(closed[0]?.errors).toEqual(['b / x reported a pass, but Node recorded no attempt of it'])
    expect(printed.join('\n')).toContain('timing: no sample finished')
  })

  it('flags a forged row even on a test that failed, and counts a recorded sample whose test never reported', async () => {
    const { instance, closed, ledger } = reporter({})
    const entry = recorded(ledger, 'x', { SR: 0, PA: 0.5, SCD: 1 }, 'the agent failed: boom')
    recorded(ledger, 'y', { SR: 1, PA: 1, SCD: 0 })
    await instance.onTestCaseResult(testCase('x', { state: 'fail', awb: { ...honest(entry).awb, row: { ...entry.row, PA: 0.9 } } }))
    process.exitCode = undefined
    await instance.onTestRunEnd([], [])
    expect(closed[0]?.errors).toEqual(['b / x reported a result that is not the one Node recorded'])
    const rows = (await readFile(join(dir, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { sample_id: string; PA: number })
    expect(rows.map(row => [row.sample_id, row.PA])).toEqual([['x', 0.5], ['y', 1]])
  })

  it('waits for a sample still being recorded before it judges its test', async () => {
    const { instance, ledger } = reporter({}, { SR: 1 })
    let finish!: () => void
    const recording = ledger.recording('b', 'x', new Promise<void>(resolve => { finish = resolve }).then(() => { recorded(ledger, 'x', { SR: 0, PA: 0, SCD: 3 }) }))
    const test = testCase('x', { state: 'pass' })
    const judged = instance.onTestCaseResult(test)
    finish()
    await recording
    await judged
    expect(test.task.result.state).toBe('fail')
    expect(JSON.stringify(test.task.result.errors)).toContain('SR of b / x is 0 (threshold 1)')
  })

  it('writes Node\'s account again at the end over a page update that came after the test\'s result', async () => {
    const { instance, ledger } = reporter({}, { SR: 1 })
    const test = testCase('x', honest(recorded(ledger, 'x', { SR: 0, PA: 0, SCD: 3 })))
    await instance.onTestCaseResult(test)
    // A later task update from the page replaces the result and the annotations.
    test.task.result = { state: 'pass' }
    test.task.annotations = [{ type: 'SR', message: '1' }]
    const ending = instance.onTestRunEnd([], [])
    // Synchronously, before the reporter's first await: JUnit reads the tasks after its own first await.
    expect(test.task.result.state).toBe('fail')
    expect(test.task.annotations).toContainEqual({ type: 'SR', message: '0' })
    await ending
  })

  it('adds each sample\'s pictures and timeline from Node\'s record (for the UI), and a note when they cannot be read', async () => {
    const picture = { type: 'final_capture', message: 'the final scene', attachment: { contentType: 'image/png', body: 'cG5n' } }
    const asked: string[] = []
    const { instance, ledger } = reporter({}, {}, undefined, async (block, sampleId, sampleDir) => {
      asked.push(`${block}/${sampleId} in ${sampleDir}`)
      if (sampleId === 'y') throw new Error('final.png is unreadable')
      return [picture]
    })
    const shown = testCase('x', honest(recorded(ledger, 'x', { SR: 1, PA: 1, SCD: 0 })))
    const broken = testCase('y', honest(recorded(ledger, 'y', { SR: 1, PA: 1, SCD: 0 })))
    await instance.onTestCaseResult(shown)
    await instance.onTestCaseResult(broken)
    await instance.onTestRunEnd([], [])
    expect(asked).toEqual([`b/x in ${join(dir, 'x')}`, `b/y in ${join(dir, 'y')}`])
    expect(shown.task.annotations).toContainEqual(picture)
    expect(broken.task.annotations).toContainEqual({ type: 'attachments', message: "the sample's pictures and timeline could not be read: final.png is unreadable" })
    expect(broken.task.result.state).toBe('pass')
  })

  it('marks every test, summary.md and the console of a run whose agents ran without the OS sandbox', async () => {
    const { instance, printed, ledger } = reporter({}, {}, 'AWB_SANDBOX=off: the external agent ran as a host process')
    const test = testCase('x', honest(recorded(ledger, 'x', { SR: 1, PA: 1, SCD: 0 })))
    await instance.onTestCaseResult(test)
    await instance.onTestRunEnd([], [])
    expect(test.task.annotations).toContainEqual({ type: 'unsandboxed', message: 'AWB_SANDBOX=off: the external agent ran as a host process' })
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain('**Unsandboxed run.** AWB_SANDBOX=off: the external agent ran as a host process')
    expect(printed.join('\n')).toContain('awb: unsandboxed run: AWB_SANDBOX=off')
  })
})
