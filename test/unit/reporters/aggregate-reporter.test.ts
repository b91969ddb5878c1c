// The aggregate reporter without Vitest: a missed gate prints its table and verdict and sets the exit code without
// throwing; a test whose metadata is no sample result is a run error, not a crash.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestCase, Vitest } from 'vitest/node'
import { AggregateReporter } from '../../../reporters/aggregate-reporter.ts'
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

function reporter(gates: ConstructorParameters<typeof AggregateReporter>[0]['gates']) {
  const printed: string[] = []
  const closed: { status: string; errors: readonly string[] }[] = []
  const instance = new AggregateReporter({
    layout: LAYOUT,
    gates,
    runsRoot: dir,
    protocol: 'assembly-evaluation-v1',
    env: { AWB_REPORT: '0' },
    runDir: async () => dir,
    close: async (status, errors) => { closed.push({ status, errors }) },
  })
  // Only the logger of the Vitest instance is used.
  instance.onInit({ logger: { log: (text: string) => printed.push(text) } } as unknown as Vitest)
  return { instance, printed, closed }
}

function testCase(fullName: string, awb: unknown): TestCase {
  return { fullName, meta: () => ({ awb }) } as unknown as TestCase
}

describe('AggregateReporter', () => {
  it('prints the gate table and the verdict of a missed gate and fails the exit code, without throwing', async () => {
    const { instance, printed, closed } = reporter({ blocks: { b: { SR: 1 } } })
    instance.onTestCaseResult(testCase('b > x', { row: scoredRow({ block: 'b', sample_id: 'x', SR: 1, PA: 1, SCD: 0 }), timings: TIMINGS, backend: 'cpu-cells', runDir: dir }))
    instance.onTestCaseResult(testCase('b > y', { row: scoredRow({ block: 'b', sample_id: 'y', SR: 0, PA: 0.5, SCD: 1 }), timings: TIMINGS, backend: 'cpu-cells', runDir: dir }))
    process.exitCode = undefined
    await expect(instance.onTestRunEnd([], [])).resolves.toBeUndefined()
    expect(process.exitCode).toBe(1)
    const output = printed.join('\n')
    expect(output).toContain('awb b 2/2 y: SR 0  PA 0.500  SCD 1.00 (overhead 0.00 s, agent 0.00 s, scoring 0.03 s: queue 0.01 s, compute 0.01 s)')
    expect(output).toMatch(/awb gates\n\s+gate\s+measured\s+status\n\s+block b SR ≥ 1\s+0\.5\s+FAILED\nawb gates FAILED: 1 of 1 missed: block b SR ≥ 1 \(measured 0\.5\)/)
    expect(closed).toEqual([{ status: 'failed', errors: [] }])
  })

  it('leaves the exit code alone when every gate is met', async () => {
    const { instance, printed, closed } = reporter({ blocks: { b: { PA: 0.5, SR: 0.5 } } })
    instance.onTestCaseResult(testCase('b > x', { row: scoredRow({ block: 'b', sample_id: 'x', SR: 1, PA: 1, SCD: 0 }), timings: TIMINGS, backend: 'cpu-cells', runDir: dir }))
    instance.onTestCaseResult(testCase('b > y', { row: scoredRow({ block: 'b', sample_id: 'y', SR: 0, PA: 0.5, SCD: 1 }), timings: TIMINGS, backend: 'cpu-cells', runDir: dir }))
    process.exitCode = undefined
    await instance.onTestRunEnd([], [])
    expect(process.exitCode).toBeUndefined()
    expect(printed.join('\n')).toMatch(/awb gates passed: 2 of 2 met/)
    expect(closed).toEqual([{ status: 'completed', errors: [] }])
  })

  it('does not count a gate that could not be measured as met', async () => {
    const { instance, printed } = reporter({ overall: { PA: 0.5 } })
    instance.onTestCaseResult(testCase('b > x', { row: scoredRow({ block: 'b', sample_id: 'x', SR: 1, PA: 1, SCD: 0 }), timings: TIMINGS, backend: 'cpu-cells', runDir: dir }))
    process.exitCode = undefined
    await instance.onTestRunEnd([], [])
    // Only one of the block's two samples ran: no official overall, so the overall gate is not measured.
    expect(printed.join('\n')).toMatch(/awb gates passed: 0 of 1 met \(1 not measured\)/)
  })

  it('records a test whose awb metadata is no sample result as a run error naming the wrong fields', async () => {
    const { instance, printed, closed } = reporter({})
    instance.onTestCaseResult(testCase('b > x', { row: { block: 'b', sample_id: 'x', status: 'scored', SR: 'all' }, timings: TIMINGS, backend: 'cpu-cells', runDir: dir }))
    await instance.onTestRunEnd([], [])
    expect(printed.join('\n')).toMatch(/awb b > x: its awb metadata is not a sample result \(.*row\.SR/)
    expect(closed).toHaveLength(1)
    expect(closed[0]?.status).toBe('failed')
    expect(closed[0]?.errors[0]).toMatch(/^b > x: its awb metadata is not a sample result/)
  })
})
