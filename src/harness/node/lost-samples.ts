// The records of a sample whose page was lost (it died, its test ended early, its block was given up, the run
// ended): its result.json and plan without a saved world, its finish report with one (saved by the page or rebuilt
// by Node), and why it was lost. No I/O.
import { baseFields } from '../../evaluate/index.ts'
import type { ResultJson } from '../../runs/index.ts'
import type { FinishSampleRequest, SamplePlan } from '../sample-messages.ts'

/** A sample this run has recorded, as a test reports it without running it again. */
export type RecordedPlan = Extract<SamplePlan, { kind: 'recorded' }>

/**
 * How a lost sample's execution ended: `interrupted` (its page or browser died; a resume runs it again) or `timeout`
 * (its page hung past the agent's time limit: the agent's own failure, like any timeout).
 */
export type LostStatus = 'interrupted' | 'timeout'

/** result.json archive `rebuild`: whether Node rebuilt a lost sample's world from its records, and how it went. */
export type RebuildRecord = NonNullable<NonNullable<ResultJson['archive']>['rebuild']>

/**
 * result.json of a sample that ended with no world saved: failed, execution `status`, `reason` as its error.
 * `startedAt` is null for a sample that never started; `rebuild` says why Node could not rebuild its world, if it tried.
 */
export function interruptedResult(reason: string, startedAt: string | null, status: LostStatus = 'interrupted', rebuild?: Extract<RebuildRecord, { status: 'not_rebuilt' }>) {
  return {
    status: 'failed' as const,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    execution: { status, final_answer: null, error: reason, usage: null, cost_usd: null, model: null, exit_code: null, agent_error: reason, parse_errors: 0 },
    archive: { status: 'not_saved' as const, sha256: null, calls: null, error: reason, ...(rebuild === undefined ? {} : { rebuild }) },
    agent_outcome: null,
    cleanup_error: null,
  }
}

/** The plan of such a sample: an error row (PA 0, SR 0), as `awb eval` scores an attempt without an export. */
export function interruptedPlan(where: { block: string; sampleId: string; runDir: string; sampleDir: string }, reason: string, status: LostStatus = 'interrupted'): RecordedPlan {
  const timedOut = status === 'timeout'
  return {
    kind: 'recorded',
    row: { ...baseFields({ block: where.block, sampleId: where.sampleId, run: where.runDir }), status: 'error', error: `${timedOut ? 'SampleTimedOut' : 'SampleInterrupted'}: ${reason}`, SCD: null, PA: 0, SR: 0 },
    timings: { openMs: 0, agentMs: 0, exportMs: 0, saveMs: 0, scoreMs: 0, scoreQueueMs: 0, scoreComputeMs: 0 },
    backend: 'none',
    runDir: where.runDir,
    sampleDir: where.sampleDir,
    failure: timedOut ? `the agent timed out: ${reason}` : `the sample was interrupted: ${reason}`,
  }
}

/**
 * What a sample's finish reports; the page's own report, or what Node knows of a sample whose page was lost. Only Node
 * sets archive `rebuild` (the page's report is parsed strictly and cannot carry it).
 */
export type FinishReport = Omit<FinishSampleRequest, 'toolCalls' | 'durationSeconds' | 'archive'> & {
  archive: FinishSampleRequest['archive'] & { rebuild?: RebuildRecord }
  toolCalls: number | null
  durationSeconds: number | null
}

/**
 * The finish report of a sample whose page was lost after its final episode was saved: execution `status` with the
 * reason, the archive as saved, the agent's time from start to save; its tool calls and page timings are unknown.
 */
export function savedButLostReport(reason: string, status: LostStatus, saved: { at: number; sha256: string }, startedAt: string | undefined): FinishReport {
  return {
    execution: { status, final_answer: null, error: reason, usage: null, cost_usd: null, model: null },
    archive: { status: 'saved', sha256: saved.sha256, calls: null, error: null },
    agentOutcome: null,
    toolCalls: null,
    durationSeconds: startedAt === undefined ? null : Math.max(0, (saved.at - Date.parse(startedAt)) / 1000),
    timings: { openMs: 0, agentMs: 0, exportMs: 0, saveMs: 0 },
    capture: null,
  }
}

/** Why the samples still open when the run ends were lost, from the run's errors: a browser that died, or the end. */
export function endedRunReason(errors: readonly string[]): string {
  const isBrowserDead = errors.some(error => /Browser connection was closed|page (was )?closed|Target (page, context or browser )?(has been )?closed/i.test(error))
  return isBrowserDead
    ? 'a browser of the run closed while this sample ran (crashed or killed) and Vitest ended the run; continue with AWB_RESUME'
    : 'the run ended before the sample finished; continue with AWB_RESUME'
}

/**
 * The finish report of a lost sample whose world Node rebuilt from its records (`rebuild-world.ts`) and saved:
 * execution `status` with the reason (the agent still failed), the rebuilt archive as saved, the tool calls Node
 * recorded and the time from start to the loss; its page timings are unknown.
 */
export function rebuiltReport(reason: string, status: LostStatus, rebuilt: { sha256: string; calls: number; toolCalls: number; replayed: number }, startedAt: string | undefined, lostAt: number): FinishReport {
  return {
    execution: { status, final_answer: null, error: reason, usage: null, cost_usd: null, model: null },
    archive: { status: 'saved', sha256: rebuilt.sha256, calls: rebuilt.calls, error: null, rebuild: { status: 'rebuilt', from: 'conversation.jsonl', tool_calls: rebuilt.toolCalls, replayed: rebuilt.replayed } },
    agentOutcome: null,
    toolCalls: rebuilt.toolCalls,
    durationSeconds: startedAt === undefined ? null : Math.max(0, (lostAt - Date.parse(startedAt)) / 1000),
    timings: { openMs: 0, agentMs: 0, exportMs: 0, saveMs: 0 },
    capture: null,
  }
}
