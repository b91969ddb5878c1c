// The run's ledger: what Node itself recorded for each sample (its official row, its failure, where it was
// recorded). Every output of a run — test verdicts, the table, metrics.jsonl, summaries, JUnit, gates — is built
// from it; what a page reports about its own test is display only. No I/O here.
import { sampleKey } from '../../package/index.ts'
import type { SampleMeta } from '../sample-messages.ts'
import type { RecordedPlan } from './lost-samples.ts'

/** One sample as Node recorded it: its row, timings and failure; `recordedBy` when an earlier run of the chain did. */
export type LedgerEntry = Omit<RecordedPlan, 'kind'> & { recordedBy?: string | undefined }

/** A block's test thresholds (the plugin's `thresholds` option). */
export interface Thresholds {
  SR?: number | undefined
  PA?: number | undefined
}

/**
 * The samples of one run, keyed by block and sample id (the test's project and name). An entry is written once its
 * record is complete; a sample being scored is `pending` until then, so a reader can wait for it instead of taking
 * "no record" for an answer.
 */
export class SampleLedger {
  private readonly entries = new Map<string, LedgerEntry>()
  private readonly pending = new Map<string, Promise<void>>()

  /** Records `block / sampleId`; a later record of the same sample (a re-run after its page was lost) replaces it. */
  record(block: string, sampleId: string, entry: LedgerEntry): void {
    this.entries.set(sampleKey(block, sampleId), entry)
  }

  /** The sample's record, if it has one now. */
  entry(block: string, sampleId: string): LedgerEntry | undefined {
    return this.entries.get(sampleKey(block, sampleId))
  }

  /** Marks the sample as being recorded until `recording` settles (its outcome is the caller's). */
  async recording<T>(block: string, sampleId: string, recording: Promise<T>): Promise<T> {
    const key = sampleKey(block, sampleId)
    this.pending.set(key, recording.then(() => undefined, () => undefined))
    try {
      return await recording
    } finally {
      this.pending.delete(key)
    }
  }

  /** The sample's record once any recording in flight has settled; undefined when Node recorded nothing. */
  async settled(block: string, sampleId: string): Promise<LedgerEntry | undefined> {
    await this.pending.get(sampleKey(block, sampleId))
    return this.entry(block, sampleId)
  }

  /** Whether a record of the sample is being written now. */
  isPending(block: string, sampleId: string): boolean {
    return this.pending.has(sampleKey(block, sampleId))
  }

  /** Every recorded sample, once every recording in flight has settled. */
  async all(): Promise<Array<{ block: string; sampleId: string; entry: LedgerEntry }>> {
    await Promise.all([...this.pending.values()])
    return [...this.entries.values()].map(entry => ({ block: entry.row.block, sampleId: entry.row.sample_id, entry }))
  }
}

/**
 * The test verdict Node's record supports: failed with the recorded failure, an unscorable row, or each threshold
 * the row misses (the same rules the block suite asserts in the page).
 */
export function ledgerVerdict(entry: LedgerEntry, thresholds: Thresholds): { passed: boolean; reasons: string[] } {
  const { row } = entry
  const where = `${row.block} / ${row.sample_id}`
  const reasons: string[] = []
  if (entry.failure !== null) reasons.push(`${where}: ${entry.failure}`)
  if (row.status === 'error') {
    if (entry.failure === null) reasons.push(`${where}: unscorable: ${row.error}`)
  } else {
    if (thresholds.SR !== undefined && !(row.SR >= thresholds.SR)) reasons.push(`SR of ${where} is ${row.SR} (threshold ${thresholds.SR})`)
    if (thresholds.PA !== undefined && !(row.PA >= thresholds.PA)) reasons.push(`PA of ${where} is ${row.PA} (threshold ${thresholds.PA})`)
  }
  return { passed: reasons.length === 0, reasons }
}

/** The per-test metadata that shows a ledger entry (the reporter writes it over whatever the page set). */
export function ledgerMeta(entry: LedgerEntry): SampleMeta {
  return { row: entry.row, timings: entry.timings, backend: entry.backend, runDir: entry.runDir, ...(entry.recordedBy === undefined ? {} : { recordedBy: entry.recordedBy }) }
}
