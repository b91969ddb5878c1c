// What a run does with each sample: run it, report the result an earlier run of the chain recorded (resume), or
// skip it because the run stopped (runner.md §6 stop rules). No files written here; the session writes records.
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { isQuotaExhausted } from '../../agents/cli/index.ts'
import * as z from 'zod'
import { attemptRow, describeIssues, parseMetricsRow, type SampleScorer } from '../../evaluate/index.ts'
import { sampleKey, type BenchmarkPackage } from '../../package/index.ts'
import { chainStatus, needsRun, RunError, type ChainSample } from '../../runs/index.ts'
import { SampleTimingsSchema, type SamplePlan, type SampleTimings } from '../protocol.ts'

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

/**
 * The stop rules: an infrastructure failure is an execution that did not complete or an archive that was not
 * saved, except a timeout whose archive was saved; three in a row, or quota text anywhere in the execution record,
 * stop dispatch. Samples already running finish; the rest are skipped.
 */
export class StopRules {
  private consecutive = 0
  private stopped: string | undefined

  /** Counts one finished sample; returns the stop reason when this sample stopped the run. */
  record(end: SampleEnd): string | undefined {
    if (this.stopped !== undefined) return undefined
    if (isQuotaExhausted(JSON.stringify(end.execution))) return this.stop(STOP_REASONS.quota)
    const isTimeoutWithArchive = end.execution.status === 'timeout' && end.archive.status === 'saved'
    const isInfrastructureFailure = !isTimeoutWithArchive && (end.execution.status !== 'completed' || end.archive.status !== 'saved')
    this.consecutive = isInfrastructureFailure ? this.consecutive + 1 : 0
    if (this.consecutive >= MAX_CONSECUTIVE_INFRASTRUCTURE_FAILURES) return this.stop(STOP_REASONS.failures)
    return undefined
  }

  /** Stops dispatch for `reason` (the first reason wins). */
  stop(reason: string): string {
    this.stopped ??= reason
    return this.stopped
  }

  get reason(): string | undefined {
    return this.stopped
  }
}

/** Where a resume continues from, and the samples it reports instead of running. */
export interface ResumePlan {
  /** The run the new one resumes (its `source_run`). */
  sourceRun: string
  /** Per `block\0sampleId`: the chain's newest record, when that sample needs no new attempt. */
  recorded: Map<string, ChainSample>
  /**
   * Why each `damaged` sample runs again: its seal fails (a changed, planted or removed file…) or its archive
   * changed; one line each, naming the run, the sample and the file. Empty when every record checks out.
   */
  damaged: string[]
}

/** `latest` or a run directory → the run directory (the newest in `runsRoot` for `latest`). */
export async function resolveResumeRun(resume: string, runsRoot: string): Promise<string> {
  if (resume !== 'latest') return resolve(resume)
  let names: string[]
  try {
    names = (await readdir(runsRoot, { withFileTypes: true })).filter(entry => entry.isDirectory()).map(entry => entry.name)
  } catch {
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
  const known = new Set(options.pkg.blocks.flatMap(block => block.samples.map(sample => sampleKey(block.name, sample.id))))
  const recorded = new Map<string, ChainSample>()
  const damaged: string[] = []
  for (const sample of status.samples) {
    const id = sampleKey(sample.block, sample.sampleId)
    if (!known.has(id)) throw new RunError('RUN_RECORD_INVALID', `${sample.attempt.dir} records ${sample.block} / ${sample.sampleId}, which is not in the package ${options.pkg.root}; resume with the package the run was made on`, { file: sample.attempt.dir })
    // A damaged record (its seal fails) is never reported: the sample runs again.
    if (sample.state === 'damaged') damaged.push(`${sample.damage ?? `${sample.block} / ${sample.sampleId} is damaged`}; it runs again`)
    if (!needsRun(sample.state, options.retryFailed)) recorded.set(id, sample)
  }
  return { sourceRun: status.run.dir, recorded, damaged }
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

