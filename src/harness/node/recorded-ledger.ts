// Node's records of runs made elsewhere (the shards of a `--merge-reports`), read into ledger entries: each reported
// test's row comes from the result.json its run wrote, never from what the test's (page-written) report says. The
// runs read are the merged run's shards (`shards`); writing its run.json is src/runs's.
import { basename, join } from 'node:path'
import * as z from 'zod'
import { describeIssues, parseMetricsRow } from '../../evaluate/index.ts'
import { readRun, verifyRunSeals, type AttemptRecord, type MergedShard, type RunRecord, type RunSeals } from '../../runs/index.ts'
import { compareCodePoints } from '../../shared/code-points.ts'
import { SampleTimingsSchema } from '../sample-messages.ts'
import type { LedgerEntry } from './ledger.ts'
import { recordedFailure } from './run-plan.ts'

/** result.json `harness` as this harness records it (older records may lack either field). */
const RecordedHarnessSchema = z.object({
  timings_ms: SampleTimingsSchema.partial().optional(),
  scoring_backend: z.string().optional(),
})

/** What a report's (page-written) metadata may point at: the run that recorded the sample. Nothing else is read. */
const ReportedRunSchema = z.object({ runDir: z.string(), recordedBy: z.string().optional() })

/** The ledger entry of a recorded attempt whose result.json holds its official row (`metrics`); throws otherwise. */
export function recordedEntry(attempt: AttemptRecord): LedgerEntry {
  const file = join(attempt.dir, 'result.json')
  const result = attempt.result
  if (result === undefined) throw new Error(`${file}: ${attempt.recordError ?? 'no result.json'}`)
  if (result.metrics === undefined) throw new Error(`${file} holds no official row (\`metrics\`); score the run with \`awb eval\``)
  const harness = RecordedHarnessSchema.safeParse(result.harness ?? {})
  if (!harness.success) throw new Error(`${file}: \`harness\` is not what this harness records: ${describeIssues(harness.error)}`)
  const ms = harness.data.timings_ms ?? {}
  return {
    row: parseMetricsRow(result.metrics, { file, what: 'result.json `metrics`' }),
    timings: {
      openMs: ms.openMs ?? 0, agentMs: ms.agentMs ?? 0, exportMs: ms.exportMs ?? 0, saveMs: ms.saveMs ?? 0,
      scoreMs: ms.scoreMs ?? 0, scoreQueueMs: ms.scoreQueueMs ?? 0, scoreComputeMs: ms.scoreComputeMs ?? 0,
    },
    backend: harness.data.scoring_backend ?? 'recorded',
    runDir: attempt.run,
    sampleDir: attempt.dir,
    failure: recordedFailure(result),
  }
}

/**
 * The records of the runs that blob reports name, found by run id in `runsRoot` (the shards' `runs/` folders,
 * copied next to their `.vitest-reports/`). The name a report gives is only a pointer: the row is read from the
 * run's own result.json, checked against the run's seals; a run or sample that is not there, or whose seal fails,
 * leaves the test without a record.
 */
export class RecordedRuns {
  private readonly runsRoot: string
  private readonly runs = new Map<string, Promise<{ run: RunRecord; seals: RunSeals } | Error>>()
  /** Why reported tests have no record here (the run fails: their rows cannot be trusted). */
  readonly problems: string[] = []

  constructor(runsRoot: string) {
    this.runsRoot = runsRoot
  }

  /** Node's record of `block / sampleId` in the run the test's report names, or undefined (with a problem noted). */
  async entryOf(block: string, sampleId: string, reportedMeta: unknown): Promise<LedgerEntry | undefined> {
    const reported = ReportedRunSchema.safeParse(reportedMeta)
    if (!reported.success) return undefined
    const runId = basename(reported.data.recordedBy ?? reported.data.runDir)
    const read = await this.run(runId)
    if (read instanceof Error) {
      this.problems.push(`${block} / ${sampleId}: its run ${runId} is not readable in ${this.runsRoot} (${read.message}); copy each shard's runs folder there before --merge-reports`)
      return undefined
    }
    const { run, seals } = read
    const attempt = run.attempts.find(candidate => candidate.block === block && candidate.sampleId === sampleId)
    if (attempt === undefined) {
      this.problems.push(`${block} / ${sampleId}: run ${runId} has no record of it`)
      return undefined
    }
    // The shard's records as its Node sealed them: a changed, planted or missing file leaves the test without a row.
    const seal = seals.samples.find(candidate => candidate.block === block && candidate.sampleId === sampleId)
    if (seal?.flagged === true || seals.chainProblems.length > 0) {
      this.problems.push(`${block} / ${sampleId}: its record in run ${runId} fails its seal: ${seal?.message ?? seals.chainProblems.join('; ')}`)
      return undefined
    }
    try {
      return { ...recordedEntry(attempt), ...(reported.data.recordedBy === undefined ? {} : { recordedBy: attempt.run }) }
    } catch (error) {
      this.problems.push(`${block} / ${sampleId}: ${error instanceof Error ? error.message : String(error)}`)
      return undefined
    }
  }

  /**
   * The shard runs the reports named that could be read, by id (their folder names in `runsRoot`), in id order: the
   * runs a merged run is made of (`MergedRunWriter`). A run whose records fail their seals is one of them (its
   * flagged samples stay flagged wherever the merged run is read); one that could not be read is a problem instead.
   */
  async shards(): Promise<MergedShard[]> {
    const shards: MergedShard[] = []
    for (const [id, read] of this.runs) {
      const done = await read
      if (!(done instanceof Error)) shards.push({ id, ...done })
    }
    return shards.sort((a, b) => compareCodePoints(a.id, b.id))
  }

  private run(runId: string): Promise<{ run: RunRecord; seals: RunSeals } | Error> {
    let read = this.runs.get(runId)
    if (read === undefined) {
      // A shard's run has ended when its reports are merged: nothing is being sealed any more.
      read = readRun(join(this.runsRoot, runId))
        .then(async run => ({ run, seals: await verifyRunSeals(run, { live: false }) }))
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
      this.runs.set(runId, read)
    }
    return read
  }
}
