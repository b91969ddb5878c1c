// What a run does with each of its samples, now: the run rules (run-rules.ts) applied to what this run recorded, its
// stop state and the resumed chain, which is read here (the run to resume, its records, each reported row). No
// files written here; the recorder writes records.
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import * as z from 'zod'
import { attemptRow, describeIssues, parseMetricsRow, type SampleScorer } from '../../evaluate/index.ts'
import type { BenchmarkPackage } from '../../package/index.ts'
import { chainStatus, RunError, type ChainSample } from '../../runs/index.ts'
import { isNotFoundError } from '../../shared/fs-errors.ts'
import { SampleTimingsSchema, type SamplePlan, type SampleTimings } from '../sample-messages.ts'
import type { SampleLedger } from './ledger.ts'
import { decideSample, resumedRecordOf, selectResumed, StopRules, type ResumeSelection } from './run-rules.ts'

export interface RunPlanOptions {
  /** Continue this run chain (a run directory, or `latest` in `runsRoot`); undefined: a new chain. */
  resume?: string | undefined
  runsRoot: string
  /** With `resume`: failed samples run again too. */
  retryFailed?: boolean | undefined
}

/** The plan of one run: its stop rules, the resumed chain (read once, on first need) and each sample's plan. */
export class RunPlan {
  readonly stopRules = new StopRules()
  private readonly pkg: BenchmarkPackage
  private readonly options: RunPlanOptions
  private readonly ledger: SampleLedger
  /** Scores a recorded attempt whose result.json holds no row (records of earlier versions). */
  private readonly scorer: () => SampleScorer
  private resumePlan: Promise<ResumePlan | undefined> | undefined

  constructor(pkg: BenchmarkPackage, options: RunPlanOptions, from: { ledger: SampleLedger; scorer: () => SampleScorer }) {
    this.pkg = pkg
    this.options = options
    this.ledger = from.ledger
    this.scorer = from.scorer
  }

  /** What the run does with `block / sampleId` now (`decideSample`; a resumed chain's record is read as its row). */
  planOf(block: string, sampleId: string): Promise<SamplePlan> | SamplePlan {
    const decision = decideSample({ isRecording: this.ledger.isPending(block, sampleId), recordedHere: this.ledger.entry(block, sampleId), stopReason: this.stopRules.reason })
    // A sample being recorded now is waited for: its page may come back (a new page after a crash) meanwhile.
    if (decision.kind === 'wait') return this.ledger.settled(block, sampleId).then(() => this.planOf(block, sampleId))
    if (decision.kind !== 'chain') return decision
    return this.resumed().then(async (plan) => {
      const recorded = resumedRecordOf(plan, block, sampleId)
      return recorded === undefined ? { kind: 'run' as const } : recordedPlan(recorded, this.pkg, this.scorer)
    })
  }

  /** The run this one resumes (run.json `source_run`), or null. */
  async sourceRun(): Promise<string | null> {
    return (await this.resumed())?.sourceRun ?? null
  }

  private resumed(): Promise<ResumePlan | undefined> {
    const resume = this.options.resume
    this.resumePlan ??= resume === undefined ? Promise.resolve(undefined) : planResume({ resume, runsRoot: this.options.runsRoot, retryFailed: this.options.retryFailed === true, pkg: this.pkg })
    return this.resumePlan
  }
}

/** Where a resume continues from, and the samples it reports instead of running (chosen by `selectResumed`). */
export interface ResumePlan extends ResumeSelection {
  /** The run the new one resumes (its `source_run`). */
  sourceRun: string
}

/** `latest` or a run directory → the run directory (the newest in `runsRoot` for `latest`). */
export async function resolveResumeRun(resume: string, runsRoot: string): Promise<string> {
  if (resume !== 'latest') return resolve(resume)
  let names: string[]
  try {
    names = (await readdir(runsRoot, { withFileTypes: true })).filter(entry => entry.isDirectory()).map(entry => entry.name)
  } catch (error) {
    // No runs folder yet means nothing to resume (said below); one that cannot be listed is a real failure.
    if (!isNotFoundError(error)) throw new RunError('RUN_NOT_FOUND', `AWB_RESUME=latest: cannot list ${runsRoot} (${error instanceof Error ? error.message : String(error)}); check its permissions`, { file: runsRoot, cause: error })
    names = []
  }
  // Run ids start with their UTC start time, so name order is start order.
  const newest = names.filter(name => /^\d{4}-\d{2}-\d{2}T/.test(name) && !name.endsWith('-report')).sort().at(-1)
  if (newest === undefined) throw new RunError('RUN_NOT_FOUND', `AWB_RESUME=latest: there is no run in ${runsRoot} to resume`, { file: runsRoot })
  return join(runsRoot, newest)
}

/**
 * Reads the chain of the run to resume: every sample whose newest record is completed (or failed, unless
 * `retryFailed`) and passes its seal is reported from that record; the others run again, damaged ones included.
 * A run whose process is still alive is refused.
 */
export async function planResume(options: { resume: string; runsRoot: string; retryFailed: boolean; pkg: BenchmarkPackage }): Promise<ResumePlan> {
  const runDir = await resolveResumeRun(options.resume, options.runsRoot)
  const status = await chainStatus(runDir)
  if (status.state === 'running') {
    const writer = (status.run.json as { process?: { pid?: number } }).process
    throw new RunError('RUN_STILL_RUNNING', `${status.run.dir} is still running (process ${writer?.pid ?? '?'}); resume it once it has stopped`, { file: status.run.dir })
  }
  return { sourceRun: status.run.dir, ...selectResumed(status.samples, options.pkg, { retryFailed: options.retryFailed }) }
}

/**
 * What the harness adds to result.json beside the official row: its timings and the backend that scored the row.
 * Records of earlier versions may lack a timing (it reads 0).
 */
const RecordedHarnessSchema = z.object({
  timings_ms: SampleTimingsSchema.partial().optional(),
  scoring_backend: z.string().optional(),
})

/** The plan of a recorded sample: the row its run recorded (or, for records without one, the row scored again). */
export async function recordedPlan(sample: ChainSample, pkg: BenchmarkPackage, scorer: () => SampleScorer): Promise<Extract<SamplePlan, { kind: 'recorded' }>> {
  const result = sample.attempt.result
  const file = join(sample.attempt.dir, 'result.json')
  const parsedHarness = RecordedHarnessSchema.safeParse(result?.harness ?? {})
  if (!parsedHarness.success) throw new RunError('RUN_RECORD_INVALID', `result.json \`harness\` is not what this harness records: ${describeIssues(parsedHarness.error)}`, { file })
  const harness = parsedHarness.data
  const recordedMs = harness.timings_ms ?? {}
  const timings: SampleTimings = {
    openMs: recordedMs.openMs ?? 0, agentMs: recordedMs.agentMs ?? 0, exportMs: recordedMs.exportMs ?? 0, saveMs: recordedMs.saveMs ?? 0,
    scoreMs: recordedMs.scoreMs ?? 0, scoreQueueMs: recordedMs.scoreQueueMs ?? 0, scoreComputeMs: recordedMs.scoreComputeMs ?? 0,
  }
  // A row recorded by the run is read through the one row schema: a malformed one is an error, never a fallback.
  const row = result?.metrics === undefined
    ? await attemptRow({ kind: 'attempt', block: sample.block, sampleId: sample.sampleId, attempt: sample.attempt }, pkg, scorer())
    : parseMetricsRow(result.metrics, { file, what: 'result.json `metrics`' })
  return { kind: 'recorded', row, timings, backend: harness.scoring_backend ?? 'recorded', runDir: sample.attempt.run, sampleDir: sample.attempt.dir, failure: failureOf(sample) }
}

/** The recorded attempt's failure, worded as the test that ran it reported it. */
function failureOf(sample: ChainSample): string | null {
  const result = sample.attempt.result
  return result === undefined ? null : recordedFailure(result)
}

/** The failure a result.json records (null when it completed), worded as the test that ran it reported it. */
export function recordedFailure(result: { status: string; execution?: { status: string; error?: string | null | undefined; agent_error?: string | null | undefined } | undefined; archive?: { error?: string | null | undefined } | undefined }): string | null {
  if (result.status !== 'failed') return null
  const execution = result.execution
  if (execution !== undefined && execution.status !== 'completed') {
    const what = execution.status === 'timeout' ? 'the agent timed out' : execution.status === 'interrupted' ? 'the sample was interrupted' : 'the agent failed'
    return `${what}: ${execution.error ?? execution.agent_error ?? execution.status}`
  }
  return result.archive?.error ?? 'the final episode was not saved'
}

