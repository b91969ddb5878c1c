// The records of a sample that ended without a saved world (its page died, its test ended early, its block was
// given up): its result.json and the plan that reports it when its block's file runs again. No I/O here.
import type { SamplePlan } from '../protocol.ts'

/** A sample this run has recorded, as a test reports it without running it again. */
export type RecordedPlan = Extract<SamplePlan, { kind: 'recorded' }>

/**
 * How a lost sample's execution ended: `interrupted` (its page or browser died; a resume runs it again) or `timeout`
 * (its page hung past the agent's time limit: the agent's own failure, like any timeout).
 */
export type LostStatus = 'interrupted' | 'timeout'

/**
 * result.json of a sample that ended with no world saved: failed, execution `status`, `reason` as its error.
 * `startedAt` is null for a sample that never started.
 */
export function interruptedResult(reason: string, startedAt: string | null, status: LostStatus = 'interrupted') {
  return {
    status: 'failed' as const,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    execution: { status, final_answer: null, error: reason, usage: null, cost_usd: null, model: null, exit_code: null, agent_error: reason, parse_errors: 0 },
    archive: { status: 'not_saved' as const, sha256: null, calls: null, error: reason },
    agent_outcome: null,
    cleanup_error: null,
  }
}

/** The plan of such a sample: an error row (PA 0, SR 0), as `awb eval` scores an attempt without an export. */
export function interruptedPlan(where: { block: string; sampleId: string; runDir: string; sampleDir: string }, reason: string, status: LostStatus = 'interrupted'): RecordedPlan {
  const timedOut = status === 'timeout'
  return {
    kind: 'recorded',
    row: { block: where.block, sample_id: where.sampleId, run: where.runDir, duration_seconds: null, usage: null, cost_usd: null, tool_calls: null, attempt_finished: true, status: 'error', error: `${timedOut ? 'SampleTimedOut' : 'SampleInterrupted'}: ${reason}`, SCD: null, PA: 0, SR: 0 },
    timings: { openMs: 0, agentMs: 0, exportMs: 0, saveMs: 0, scoreMs: 0, scoreQueueMs: 0, scoreComputeMs: 0 },
    backend: 'none',
    runDir: where.runDir,
    sampleDir: where.sampleDir,
    failure: timedOut ? `the agent timed out: ${reason}` : `the sample was interrupted: ${reason}`,
  }
}
