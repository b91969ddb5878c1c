// Node's records of runs made elsewhere (the shards of a `--merge-reports`), read into ledger entries: each reported
// test's row comes from the result.json its run wrote, never from what the test's (page-written) report says.
import { basename, join } from 'node:path'
import * as z from 'zod'
import { describeIssues, parseMetricsRow } from '../../evaluate/index.ts'
import { readRun, type AttemptRecord, type RunRecord } from '../../runs/index.ts'
import { SampleTimingsSchema, SampleMetaSchema } from '../protocol.ts'
import type { LedgerEntry } from './ledger.ts'
import { recordedFailure } from './run-plan.ts'

/** result.json `harness` as this harness records it (older records may lack either field). */
const RecordedHarnessSchema = z.object({
  timings_ms: SampleTimingsSchema.partial().optional(),
  scoring_backend: z.string().optional(),
})

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
 * run's own result.json, and a run or sample that is not there leaves the test without a record.
 */
export class RecordedRuns {
  private readonly runsRoot: string
  private readonly runs = new Map<string, Promise<RunRecord | Error>>()
  /** Why reported tests have no record here (the run fails: their rows cannot be trusted). */
  readonly problems: string[] = []

  constructor(runsRoot: string) {
    this.runsRoot = runsRoot
  }

  /** Node's record of `block / sampleId` in the run the test's report names, or undefined (with a problem noted). */
  async entryOf(block: string, sampleId: string, reportedMeta: unknown): Promise<LedgerEntry | undefined> {
    const reported = SampleMetaSchema.safeParse(reportedMeta)
    if (!reported.success) return undefined
    const runId = basename(reported.data.recordedBy ?? reported.data.runDir)
    const run = await this.run(runId)
    if (run instanceof Error) {
      this.problems.push(`${block} / ${sampleId}: its run ${runId} is not readable in ${this.runsRoot} (${run.message}); copy each shard's runs folder there before --merge-reports`)
      return undefined
    }
    const attempt = run.attempts.find(candidate => candidate.block === block && candidate.sampleId === sampleId)
    if (attempt === undefined) {
      this.problems.push(`${block} / ${sampleId}: run ${runId} has no record of it`)
      return undefined
    }
    try {
      return { ...recordedEntry(attempt), ...(reported.data.recordedBy === undefined ? {} : { recordedBy: attempt.run }) }
    } catch (error) {
      this.problems.push(`${block} / ${sampleId}: ${error instanceof Error ? error.message : String(error)}`)
      return undefined
    }
  }

  private run(runId: string): Promise<RunRecord | Error> {
    let run = this.runs.get(runId)
    if (run === undefined) {
      run = readRun(join(this.runsRoot, runId)).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
      this.runs.set(runId, run)
    }
    return run
  }
}
