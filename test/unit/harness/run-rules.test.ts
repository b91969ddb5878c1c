// The run rules as pure functions: the stop rules (runner.md §6), which samples a resume runs again (§7.2 rule 3,
// retries included), and the order in which a sample's plan is decided.
import { describe, expect, it } from 'vitest'
import { interruptedPlan } from '../../../src/harness/node/lost-samples.ts'
import {
  afterSampleEnd, decideSample, DISPATCHING, MAX_CONSECUTIVE_INFRASTRUCTURE_FAILURES, needsRun, resumedRecordOf, selectResumed,
  StopRules, stopDispatch, STOP_REASONS, type SampleEnd, type StopState,
} from '../../../src/harness/node/run-rules.ts'
import type { ChainSample, SampleState } from '../../../src/runs/index.ts'

const FAILED: SampleEnd = { execution: { status: 'failed' }, archive: { status: 'not_saved' } }
const COMPLETED: SampleEnd = { execution: { status: 'completed' }, archive: { status: 'saved' } }
const TIMED_OUT_SAVED: SampleEnd = { execution: { status: 'timeout' }, archive: { status: 'saved' } }
const STATES: readonly SampleState[] = ['pending', 'running', 'completed', 'failed', 'interrupted', 'damaged']

function ended(ends: readonly SampleEnd[], from: StopState = DISPATCHING): StopState {
  return ends.reduce(afterSampleEnd, from)
}

function chainSample(block: string, sampleId: string, state: SampleState, damage?: string): ChainSample {
  const dir = `/runs/r1/blocks/${block}/samples/${sampleId}`
  return { block, sampleId, state, attempt: { block, sampleId, slug: sampleId, dir, run: '/runs/r1', result: undefined, input: undefined, recordError: undefined }, seal: undefined, damage }
}

const PKG = { root: '/pkg', blocks: [{ name: 'b1', samples: [{ id: 's1' }, { id: 's2' }, { id: 's3' }] }, { name: 'b2', samples: [{ id: 's1' }] }] }

describe('stop rules', () => {
  it(`stop after ${MAX_CONSECUTIVE_INFRASTRUCTURE_FAILURES} infrastructure failures in a row, and not one earlier`, () => {
    const almost = ended(Array.from({ length: MAX_CONSECUTIVE_INFRASTRUCTURE_FAILURES - 1 }, () => FAILED))
    expect(almost).toEqual({ consecutiveFailures: MAX_CONSECUTIVE_INFRASTRUCTURE_FAILURES - 1, reason: undefined })
    expect(afterSampleEnd(almost, FAILED).reason).toBe(STOP_REASONS.failures)
  })

  it('a completed sample resets the count; a timeout whose world was saved is no infrastructure failure', () => {
    expect(ended([FAILED, FAILED, COMPLETED, FAILED, FAILED]).reason).toBeUndefined()
    expect(ended([FAILED, FAILED, TIMED_OUT_SAVED]).consecutiveFailures).toBe(0)
    // A completed agent whose export was not saved is one.
    expect(ended([FAILED, FAILED, { execution: { status: 'completed' }, archive: { status: 'failed' } }]).reason).toBe(STOP_REASONS.failures)
  })

  it('quota text anywhere in the execution record stops at once, even on a completed sample', () => {
    const quota: SampleEnd = { execution: { status: 'completed', agent_error: 'You have hit your usage limit' }, archive: { status: 'saved' } }
    expect(afterSampleEnd(DISPATCHING, quota).reason).toBe(STOP_REASONS.quota)
  })

  it('the first reason wins, and a stopped state no longer changes', () => {
    const stopped = stopDispatch(DISPATCHING, STOP_REASONS.interrupted)
    expect(stopDispatch(stopped, 'another')).toBe(stopped)
    expect(ended([FAILED, FAILED, FAILED], stopped)).toBe(stopped)
  })

  it('leaves the state it was given as it was', () => {
    const state: StopState = { consecutiveFailures: 1, reason: undefined }
    afterSampleEnd(state, FAILED)
    expect(state).toEqual({ consecutiveFailures: 1, reason: undefined })
  })

  it('StopRules holds the state and reports the sample that stopped the run, once', () => {
    const rules = new StopRules()
    expect([rules.record(FAILED), rules.record(FAILED), rules.record(FAILED), rules.record(FAILED)]).toEqual([undefined, undefined, STOP_REASONS.failures, undefined])
    expect(rules.stop(STOP_REASONS.interrupted)).toBe(STOP_REASONS.failures)
    expect(rules.reason).toBe(STOP_REASONS.failures)
  })
})

describe('resume selection', () => {
  it('runs again what is unfinished, interrupted or damaged; failed samples only on retry', () => {
    const again = (retryFailed: boolean) => STATES.filter(state => needsRun(state, { retryFailed }))
    expect(again(false)).toEqual(['pending', 'running', 'interrupted', 'damaged'])
    expect(again(true)).toEqual(['pending', 'running', 'failed', 'interrupted', 'damaged'])
  })

  it('reports the samples that need no run, keyed by block and sample, and says why damaged ones run again', () => {
    const samples = [chainSample('b1', 's1', 'completed'), chainSample('b1', 's2', 'damaged', 'final.episode.zip changed'), chainSample('b1', 's3', 'failed'), chainSample('b2', 's1', 'interrupted')]
    const selection = selectResumed(samples, PKG, { retryFailed: false })
    expect([...selection.recorded.values()].map(sample => `${sample.block} ${sample.sampleId}`)).toEqual(['b1 s1', 'b1 s3'])
    expect(selection.damaged).toEqual(['final.episode.zip changed; it runs again'])
    expect(resumedRecordOf(selection, 'b1', 's1')).toBe(samples[0])
    // The same sample id in another block is another sample.
    expect(resumedRecordOf(selection, 'b2', 's1')).toBeUndefined()
    expect(resumedRecordOf(undefined, 'b1', 's1')).toBeUndefined()
    expect(selectResumed(samples, PKG, { retryFailed: true }).recorded.size).toBe(1)
  })

  it('refuses a chain that records a sample the package does not have', () => {
    expect(() => selectResumed([chainSample('b2', 's9', 'completed')], PKG, { retryFailed: false })).toThrow(expect.objectContaining({ code: 'RUN_RECORD_INVALID', message: expect.stringContaining('b2 / s9, which is not in the package /pkg') }))
  })
})

describe('a sample\'s plan', () => {
  const { kind: _, ...recordedHere } = interruptedPlan({ block: 'b1', sampleId: 's1', runDir: '/runs/r2', sampleDir: '/runs/r2/blocks/b1/samples/s1' }, 'its page died')

  it('waits for a record being written, before anything else', () => {
    expect(decideSample({ isRecording: true, recordedHere, stopReason: STOP_REASONS.failures })).toEqual({ kind: 'wait' })
  })

  it('reports what this run recorded, even after the run stopped, without the chain it came from', () => {
    expect(decideSample({ isRecording: false, recordedHere: { ...recordedHere, recordedBy: '/runs/r1' }, stopReason: STOP_REASONS.failures })).toEqual({ kind: 'recorded', ...recordedHere })
  })

  it('starts nothing once the run stopped; otherwise the resumed chain decides', () => {
    expect(decideSample({ isRecording: false, recordedHere: undefined, stopReason: STOP_REASONS.quota })).toEqual({ kind: 'stopped', reason: STOP_REASONS.quota })
    expect(decideSample({ isRecording: false, recordedHere: undefined, stopReason: undefined })).toEqual({ kind: 'chain' })
  })
})
