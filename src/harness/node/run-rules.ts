// The run's rules as pure functions: when dispatch stops (runner.md §6), which samples a resume runs again and which
// it reports (§7.2, retries included), and what the run does with one sample now. No I/O: callers bring the facts.
import { isQuotaExhausted } from '../../agents/cli/index.ts'
import { sampleKey, type BenchmarkPackage } from '../../package/index.ts'
import { RunError, type ChainSample, type SampleState } from '../../runs/index.ts'
import type { SamplePlan } from '../sample-messages.ts'
import type { LedgerEntry } from './ledger.ts'

/** Consecutive infrastructure failures that stop dispatch (runner.md §6 rule 2). */
export const MAX_CONSECUTIVE_INFRASTRUCTURE_FAILURES = 3

export const STOP_REASONS = {
  failures: 'Three consecutive infrastructure failures',
  quota: 'Account quota exhausted',
  interrupted: 'Interrupted (SIGINT)',
} as const

/** The end of one sample as the stop rules see it. */
export interface SampleEnd {
  execution: { status: string } & Record<string, unknown>
  archive: { status: string }
}

/** Where the stop rules stand: infrastructure failures in a row, and why dispatch stopped (undefined: it goes on). */
export interface StopState {
  readonly consecutiveFailures: number
  readonly reason: string | undefined
}

/** The stop rules before any sample ended. */
export const DISPATCHING: StopState = { consecutiveFailures: 0, reason: undefined }

/**
 * The stop rules after `end`: an infrastructure failure is an execution that did not complete or an archive that was
 * not saved, except a timeout whose archive was saved; three in a row, or quota text anywhere in the execution
 * record, stop dispatch. Once stopped, nothing changes (samples already running finish; the rest are not started).
 */
export function afterSampleEnd(state: StopState, end: SampleEnd): StopState {
  if (state.reason !== undefined) return state
  if (isQuotaExhausted(JSON.stringify(end.execution))) return { ...state, reason: STOP_REASONS.quota }
  const isTimeoutWithArchive = end.execution.status === 'timeout' && end.archive.status === 'saved'
  const isInfrastructureFailure = !isTimeoutWithArchive && (end.execution.status !== 'completed' || end.archive.status !== 'saved')
  const consecutiveFailures = isInfrastructureFailure ? state.consecutiveFailures + 1 : 0
  return { consecutiveFailures, reason: consecutiveFailures >= MAX_CONSECUTIVE_INFRASTRUCTURE_FAILURES ? STOP_REASONS.failures : undefined }
}

/** The stop rules once something outside them (Ctrl-C) stops dispatch for `reason`; the first reason wins. */
export function stopDispatch(state: StopState, reason: string): StopState {
  return state.reason === undefined ? { ...state, reason } : state
}

/** The stop rules of one run: holds the state `afterSampleEnd` and `stopDispatch` compute. */
export class StopRules {
  private state = DISPATCHING

  /** Counts one ended sample; returns the stop reason when this sample stopped the run. */
  record(end: SampleEnd): string | undefined {
    const before = this.state.reason
    this.state = afterSampleEnd(this.state, end)
    return before === undefined ? this.state.reason : undefined
  }

  /** Stops dispatch for `reason` (the first reason wins); returns the reason that holds. */
  stop(reason: string): string {
    this.state = stopDispatch(this.state, reason)
    return this.state.reason ?? reason
  }

  get reason(): string | undefined {
    return this.state.reason
  }
}

/** The resume settings the rules read. */
export interface ResumeRules {
  /** Failed samples run again too (`retryFailed`, AWB_RETRY_FAILED). */
  retryFailed: boolean
}

/**
 * Whether a resume gives a sample in `state` (its newest record along the chain, `chainStatus`) a new attempt
 * (runner.md §7.2 rule 3): unfinished, interrupted or damaged samples run again; failed ones only on retry.
 */
export function needsRun(state: SampleState, rules: ResumeRules): boolean {
  return state === 'pending' || state === 'running' || state === 'interrupted' || state === 'damaged' || (rules.retryFailed && state === 'failed')
}

/** What a resume reports instead of running, and why damaged records run again. */
export interface ResumeSelection {
  /** Per `sampleKey(block, sampleId)`: the chain's newest record, when that sample needs no new attempt. */
  recorded: Map<string, ChainSample>
  /**
   * Why each `damaged` sample runs again: its seal fails (a changed, planted or removed file…) or its archive
   * changed; one line each, naming the run, the sample and the file. Empty when every record checks out.
   */
  damaged: string[]
}

/** The samples of a package, as the resume rules read them (a `BenchmarkPackage` is one). */
export type PackageSamples = Pick<BenchmarkPackage, 'root'> & { blocks: ReadonlyArray<{ name: string; samples: ReadonlyArray<{ id: string }> }> }

/**
 * Splits the chain's samples into those a resume reports (`needsRun` false) and the rest, which run again. A record
 * of a sample the package does not have throws: the chain was made on another package.
 */
export function selectResumed(samples: readonly ChainSample[], pkg: PackageSamples, rules: ResumeRules): ResumeSelection {
  const known = new Set(pkg.blocks.flatMap(block => block.samples.map(sample => sampleKey(block.name, sample.id))))
  const recorded = new Map<string, ChainSample>()
  const damaged: string[] = []
  for (const sample of samples) {
    const key = sampleKey(sample.block, sample.sampleId)
    if (!known.has(key)) throw new RunError('RUN_RECORD_INVALID', `${sample.attempt.dir} records ${sample.block} / ${sample.sampleId}, which is not in the package ${pkg.root}; resume with the package the run was made on`, { file: sample.attempt.dir })
    // A damaged record (its seal fails) is never reported: the sample runs again.
    if (sample.state === 'damaged') damaged.push(`${sample.damage ?? `${sample.block} / ${sample.sampleId} is damaged`}; it runs again`)
    if (!needsRun(sample.state, rules)) recorded.set(key, sample)
  }
  return { recorded, damaged }
}

/** The chain's record a resume reports for `block / sampleId`, or undefined when the sample runs (or nothing resumes). */
export function resumedRecordOf(selection: ResumeSelection | undefined, block: string, sampleId: string): ChainSample | undefined {
  return selection?.recorded.get(sampleKey(block, sampleId))
}

/** What is known of a sample when its test asks what to do with it. */
export interface SampleFacts {
  /** A record of it is being written now (its page came back while the sample was scored). */
  isRecording: boolean
  /** What this run recorded of it (`recordedBy` set when it reported an earlier run's record). */
  recordedHere: LedgerEntry | undefined
  /** Why dispatch stopped, if it did. */
  stopReason: string | undefined
}

/**
 * What the run does with a sample, in this order: wait for a record being written (then decide again); report what
 * this run recorded (a block's file that runs again after its page was lost runs nothing twice); nothing new once
 * dispatch stopped; otherwise the resumed chain decides (`chain`): report its record (`resumedRecordOf`) or run.
 */
export function decideSample(facts: SampleFacts): Exclude<SamplePlan, { kind: 'run' }> | { kind: 'wait' } | { kind: 'chain' } {
  if (facts.isRecording) return { kind: 'wait' }
  if (facts.recordedHere !== undefined) {
    const { recordedBy: _, ...recorded } = facts.recordedHere
    return { kind: 'recorded', ...recorded }
  }
  if (facts.stopReason !== undefined) return { kind: 'stopped', reason: facts.stopReason }
  return { kind: 'chain' }
}
