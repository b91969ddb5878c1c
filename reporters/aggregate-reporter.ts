// The aggregate reporter: a live line per finished sample, then the block/source/overall table, the official
// files in the run directory, timing figures and the gates. A thin adapter over src/report and src/scoring.
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Reporter, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { existsSync } from 'node:fs'
import { sampleAnnotations, type SampleMeta } from '../src/harness/index.ts'
import { ledgerMeta, ledgerVerdict, RecordedRuns, type LedgerEntry, type SampleLedger, type Thresholds } from '../src/harness/node/index.ts'
import { sampleKey } from '../src/package/index.ts'
import { checkGates, compareWithBaseline, formatGateTable, formatGateVerdict, formatSummaryMarkdown, formatSummaryTable, writeReportFiles, writeRunOutputs, type Gates, type RunOutputSettings } from '../src/report/index.ts'
import { MergedRunWriter } from '../src/runs/index.ts'
import { compareCodePoints } from '../src/shared/code-points.ts'
import { summarize, type BenchmarkLayout } from '../src/scoring/index.ts'
import { amendTestRecord, blockOfProject, type TestAnnotation, type TestRecordAmendment } from '../plugin/vitest-compat/index.ts'

export interface AggregateReporterOptions {
  layout: BenchmarkLayout
  gates: Gates
  /** The test thresholds of a block, as the plugin gave them to its suite. */
  thresholds(block: string): Thresholds
  /** The run directory of this process, when samples ran here (not in `--merge-reports`). */
  runDir(): Promise<string | undefined>
  /** What Node recorded of each sample in this process (undefined: no sample started here, e.g. `--merge-reports`). */
  ledger(): Promise<SampleLedger | undefined>
  /** Where the shard runs of a `--merge-reports` are (by id), and where the merged run is written. */
  runsRoot: string
  /** Ends the run (run.json status and run-level errors, samples left open, scoring workers). */
  close(status: 'completed' | 'failed', errors: readonly string[]): Promise<void>
  /** Output marker of summaries and rows. */
  protocol: string
  /**
   * Set when the run's agent processes ran without the OS sandbox (AWB_SANDBOX=off): what to say. Every test then
   * carries an `unsandboxed` property, and summary.md and the console say so.
   */
  unsandboxed?: string | undefined
  /** Curves, baseline, report and the curves' scoring backend, resolved when the run started (src/settings). */
  outputs: RunOutputSettings
  /** GitHub's job summary file (GITHUB_STEP_SUMMARY), appended to when set. */
  stepSummary: string | undefined
  /**
   * A sample's pictures and timeline for Vitest's UI and html reporter, from Node's record (src/harness/node
   * sampleAttachments); none when absent. A failure to read them costs only them.
   */
  attachments?: ((block: string, sampleId: string, sampleDir: string) => Promise<readonly TestAnnotation[]>) | undefined
}

const OVERHEAD_TARGET_S = 3
/** The JUnit property every test of an unsandboxed run carries. */
const UNSANDBOXED = 'unsandboxed'
/** The error a test gets when its page reported a pass that Node's record does not support. */
const INTEGRITY_ERROR = 'AwbIntegrityError'

/** One block test as Vitest reported it, and what Node's ledger says of it. */
interface ReportedSample {
  testCase: TestCase
  block: string
  sampleId: string
  amendment: TestRecordAmendment | undefined
}

export class AggregateReporter implements Reporter {
  private readonly options: AggregateReporterOptions
  private readonly tests = new Map<string, ReportedSample>()
  /** Pages whose reports Node's records contradict: run-level errors, and the run fails. */
  private readonly integrity: string[] = []
  private started = performance.now()
  private vitest: Vitest | undefined
  /** In `--merge-reports`: the shards' run records, and the entries read from them. */
  private recordedRuns: RecordedRuns | undefined
  private readonly mergedEntries = new Map<string, LedgerEntry>()
  /** A run ended here: the next one (watch mode) starts with none of its tests, errors or timings. */
  private runEnded = false

  constructor(options: AggregateReporterOptions) {
    this.options = options
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    this.started = performance.now()
  }

  /** Watch mode: each rerun is a run of its own, with its own session (plugin/index.ts), rows and files. */
  onTestRunStart(): void {
    if (!this.runEnded) return
    this.runEnded = false
    this.tests.clear()
    this.integrity.length = 0
    this.recordedRuns = undefined
    this.mergedEntries.clear()
    this.started = performance.now()
  }

  /**
   * Takes the test's outcome from Node's record: the row, figures and verdict Node recorded are written over what the
   * page reported, and a pass the record does not support fails the test and the run.
   */
  async onTestCaseResult(testCase: TestCase): Promise<void> {
    const block = blockOfProject(testCase.project)
    if (block === undefined) return
    const sampleId = testCase.name
    const entry = await this.entryOf(testCase, block, sampleId)
    const reported: ReportedSample = { testCase, block, sampleId, amendment: undefined }
    this.tests.set(sampleKey(block, sampleId), reported)
    const state = testCase.result().state
    if (entry === undefined) {
      // No Node record: the sample was not attempted here, whatever the page says. Only a claimed pass is an error.
      if (state === 'passed') this.contradiction(reported, `${block} / ${sampleId} reported a pass, but Node recorded no attempt of it`)
      return
    }
    const meta = ledgerMeta(entry)
    const verdict = ledgerVerdict(entry, this.options.thresholds(block))
    reported.amendment = {
      meta: { key: 'awb', value: meta },
      annotations: [
        ...sampleAnnotations(meta, { capture: existsSync(join(entry.sampleDir, 'final.png')) ? join(entry.sampleDir, 'final.png') : undefined }),
        ...(this.options.unsandboxed === undefined ? [] : [{ type: UNSANDBOXED, message: this.options.unsandboxed }]),
        ...await this.attachmentsOf(block, sampleId, entry.sampleDir),
      ],
    }
    if (!verdict.passed && state !== 'failed') this.contradiction(reported, `${block} / ${sampleId} reported ${state === 'passed' ? 'a pass' : `"${state}"`}, but Node's record fails it: ${verdict.reasons.join('; ')}`)
    else if (!sameRow(testCase.meta().awb, meta)) this.contradiction(reported, `${block} / ${sampleId} reported a result that is not the one Node recorded`)
    amendTestRecord(testCase, reported.amendment)
    this.printLive(meta)
  }

  /** The sample's attachments (final capture, reference page, timeline); a note in their place when they cannot be read. */
  private async attachmentsOf(block: string, sampleId: string, sampleDir: string): Promise<readonly TestAnnotation[]> {
    if (this.options.attachments === undefined) return []
    try {
      return await this.options.attachments(block, sampleId, sampleDir)
    } catch (error) {
      return [{ type: 'attachments', message: `the sample's pictures and timeline could not be read: ${error instanceof Error ? error.message : String(error)}` }]
    }
  }

  /** Node's record of a test's sample: this process's ledger, or in `--merge-reports` the shards' run records. */
  private async entryOf(testCase: TestCase, block: string, sampleId: string): Promise<LedgerEntry | undefined> {
    const ledger = await this.options.ledger()
    if (ledger !== undefined) return ledger.settled(block, sampleId)
    this.recordedRuns ??= new RecordedRuns(this.options.runsRoot)
    const entry = await this.recordedRuns.entryOf(block, sampleId, testCase.meta().awb)
    if (entry !== undefined) this.mergedEntries.set(sampleKey(block, sampleId), entry)
    return entry
  }

  /** A page or a local process tried what the run refused (a foreign websocket, a cancel): the run fails. */
  recordRefusal(message: string): void {
    this.integrity.push(message)
    this.print(`awb integrity: ${message}`)
  }

  private contradiction(reported: ReportedSample, message: string): void {
    this.integrity.push(message)
    this.print(`awb integrity: ${message}`)
    const failure = { name: INTEGRITY_ERROR, message: `${message}. The result comes from Node's record; the page's report is not trusted.` }
    reported.amendment = reported.amendment === undefined
      ? { meta: { key: 'awb', value: undefined }, annotations: [], failure }
      : { ...reported.amendment, failure }
    amendTestRecord(reported.testCase, reported.amendment)
  }

  private printLive(meta: SampleMeta): void {
    const row = meta.row
    const done = [...this.tests.values()].filter(test => test.block === row.block && test.amendment?.meta.value !== undefined).length
    const expected = this.options.layout.blocks.find(b => b.name === row.block)?.sampleIds.length ?? 0
    const outcome = row.status === 'scored' ? `SR ${row.SR}  PA ${row.PA.toFixed(3)}  SCD ${row.SCD?.toPrecision(3)}` : `error: ${row.error}`
    const overhead = (meta.timings.openMs + meta.timings.exportMs + meta.timings.saveMs) / 1000
    const { scoreMs, scoreQueueMs, scoreComputeMs } = meta.timings
    this.print(`awb ${row.block} ${done}/${expected} ${row.sample_id}: ${outcome} (overhead ${overhead.toFixed(2)} s, agent ${(meta.timings.agentMs / 1000).toFixed(2)} s, scoring ${seconds(scoreMs)} s: queue ${seconds(scoreQueueMs)} s, compute ${seconds(scoreComputeMs)} s)`)
  }

  async onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = [], reason?: TestRunEndReason): Promise<void> {
    this.runEnded = true
    // Before anything awaits (every reporter's onTestRunEnd starts now, JUnit reads the tasks after its first await):
    // Node's account again over any page update that came after the test's result.
    for (const test of this.tests.values()) if (test.amendment !== undefined) amendTestRecord(test.testCase, test.amendment)
    const metas = (await this.ledgerEntries()).map(ledgerMeta)
    // Errors outside any test (a browser that died, a page that could not load) end up in run.json `errors`.
    const errors = [...unhandledErrors.map(describeRunError), ...this.integrity, ...(this.recordedRuns?.problems ?? [])]
    // Vitest's own cancel (its --bail, a keyboard cancel in watch mode): what did not run is not attempted, and the run
    // says so instead of `completed`. (A page cannot cancel: the plugin refuses it.)
    if (reason === 'interrupted') errors.push('Vitest cancelled the run before every test ran; the samples that did not run are not attempted')
    const runDir = await this.options.runDir()
    if (metas.length === 0 && runDir === undefined) {
      // Nothing ran here (every test filtered out, or a merge of empty reports): no run to summarise.
      await this.options.close('failed', errors)
      return
    }
    // A merge (--merge-reports) ran no sample here: its rows are the shard runs' records, and its own run says which.
    const merged = runDir === undefined ? await this.mergedRun(errors) : undefined
    const rows = metas.map(meta => meta.row)
    const summary = summarize(rows, this.options.layout, { protocol: this.options.protocol })
    const gates = checkGates(summary, this.options.gates, this.options.layout.blocks.map(b => b.name), this.options.layout.sources)
    // Extras beside the official files (src/report/run-outputs.ts): baseline comparison, curves, arrow, HTML report.
    const extras = this.options.outputs
    const baseline = await compareWithBaseline(rows, extras, this.options.gates)
    gates.push(...baseline.gates)
    // A merged report (--merge-reports) ran no sample here: its wall time says nothing about the run.
    this.print('', formatSummaryTable(summary, this.options.layout), '', ...(metas.length === 0 ? ['timing: no sample finished'] : this.timingLines(metas, runDir !== undefined)))
    const dir = runDir ?? merged?.writer.dir
    if (dir === undefined) {
      await this.options.close('failed', errors)
      process.exitCode = 1
      return
    }
    const unsandboxed = this.options.unsandboxed === undefined ? '' : `\n> **Unsandboxed run.** ${this.options.unsandboxed}\n`
    if (this.options.unsandboxed !== undefined) this.print(`awb: unsandboxed run: ${this.options.unsandboxed}`)
    const paths = await writeReportFiles(dir, { summary, rows, markdown: formatSummaryMarkdown(summary, this.options.layout, gates) + unsandboxed + baseline.markdown }, this.options.stepSummary)
    this.print(`awb: wrote ${paths.join(', ')}`)
    if (baseline.verdictLine !== null) this.print(`awb ${baseline.verdictLine}`)
    await this.writeExtras(dir, extras, this.options.stepSummary)
    const failed = gates.filter(gate => gate.status === 'failed')
    if (gates.length > 0) this.print('', 'awb gates', ...formatGateTable(gates), formatGateVerdict(gates))
    const untrusted = this.integrity.length + (this.recordedRuns?.problems.length ?? 0)
    for (const problem of this.recordedRuns?.problems ?? []) this.print(`awb integrity: ${problem}`)
    if (untrusted > 0) this.print('', `awb integrity: ${untrusted} test report(s) without Node's support; the run fails`)
    const status = failed.length === 0 && errors.length === 0 ? 'completed' : 'failed'
    await this.options.close(status, errors)
    if (merged !== undefined) {
      await merged.writer.finish(status, errors)
      this.print(`awb: merged run ${merged.writer.dir} (its rows are the records of ${merged.shards.length} shard run${merged.shards.length === 1 ? '' : 's'}: ${merged.shards.join(', ')}); awb status, awb report and awb eval take this folder`)
    }
    // A failed gate, or a page report Node's record contradicts, fails the run even when every test passed. Not
    // thrown: a reporter's exception is an "Unhandled Error" with a stack; Vitest exits with process.exitCode, which it
    // only ever raises (never resets to 0).
    if (failed.length > 0 || untrusted > 0) process.exitCode = 1
  }

  /**
   * The run of a merge: `<runsRoot>/<id>-merged/run.json`, naming the shard runs the rows were read from and how their
   * seal chains ended. Undefined (with the reason among the run's errors) when it cannot be written.
   */
  private async mergedRun(errors: string[]): Promise<{ writer: MergedRunWriter; shards: string[] } | undefined> {
    const shards = await this.recordedRuns?.shards() ?? []
    try {
      return { writer: await MergedRunWriter.create({ runsRoot: this.options.runsRoot, shards }), shards: shards.map(shard => shard.id) }
    } catch (error) {
      const message = `the merged run could not be written in ${this.options.runsRoot}: ${error instanceof Error ? error.message : String(error)}`
      errors.push(message)
      this.print(`awb: ${message}`)
      return undefined
    }
  }

  /**
   * The rows of the run, in block and sample order: every sample Node recorded in this process (a sample recorded
   * whose test report was lost is still a row), or in `--merge-reports` the shards' records of the reported tests.
   */
  private async ledgerEntries(): Promise<LedgerEntry[]> {
    const ledger = await this.options.ledger()
    const entries = ledger !== undefined ? (await ledger.all()).map(recorded => recorded.entry) : [...this.mergedEntries.values()]
    return entries.sort((a, b) => compareCodePoints(a.row.block, b.row.block) || compareCodePoints(a.row.sample_id, b.row.sample_id))
  }

  /** metrics.arrow, curves (AWB_CURVES=1) and the HTML report; a failure here is reported, never fails the run. */
  private async writeExtras(runDir: string, extras: RunOutputSettings, stepSummary: string | undefined): Promise<void> {
    try {
      const report = await writeRunOutputs(runDir, extras, line => this.print(line))
      if (report === undefined) return
      this.print(`awb: HTML report ${report} (open it from disk)`)
      if (stepSummary !== undefined && stepSummary !== '') await appendFile(stepSummary, `\nHTML report (3D replay, score curves): \`${report}\`\n`)
    } catch (error) {
      this.print(`awb: the run's extra outputs could not be written: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private timingLines(metas: readonly SampleMeta[], ranHere: boolean): string[] {
    const overheads = metas.map(m => (m.timings.openMs + m.timings.exportMs + m.timings.saveMs) / 1000)
    const agent = metas.map(m => m.timings.agentMs / 1000)
    const scoring = metas.map(m => m.timings.scoreMs / 1000)
    const queue = metas.map(m => m.timings.scoreQueueMs / 1000)
    const compute = metas.map(m => m.timings.scoreComputeMs / 1000)
    const worst = Math.max(...overheads)
    // A sample lost with its page was never scored (backend `none`): name the backends of those that were.
    const backends = [...new Set(metas.filter(m => m.row.status === 'scored').map(m => m.backend))].join(', ') || 'none'
    return [
      ranHere
        ? `timing: ${metas.length} samples in ${((performance.now() - this.started) / 1000).toFixed(1)} s end to end (${backends} scoring)`
        : `timing: ${metas.length} samples from merged reports (${backends} scoring)`,
      `  harness overhead per sample (open + export + save): median ${median(overheads).toFixed(2)} s, max ${worst.toFixed(2)} s${worst > OVERHEAD_TARGET_S ? ` (above the ${OVERHEAD_TARGET_S} s target)` : ''}`,
      `  agent per sample: median ${median(agent).toFixed(2)} s; scoring per sample: median ${median(scoring).toFixed(2)} s, max ${Math.max(...scoring).toFixed(2)} s`,
      `  of scoring, waiting for the shared scoring pool: median ${median(queue).toFixed(2)} s, max ${Math.max(...queue).toFixed(2)} s; computing: median ${median(compute).toFixed(2)} s, max ${Math.max(...compute).toFixed(2)} s`,
    ]
  }

  private print(...lines: string[]): void {
    const text = `${lines.join('\n')}\n`
    if (this.vitest !== undefined) this.vitest.logger.log(text.trimEnd())
    else process.stdout.write(text)
  }
}

/** Milliseconds as seconds with two decimals. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(2)
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/** One line per run-level error, with its cause (Vitest wraps a dead browser in "Failed to run the test …"). */
function describeRunError(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    const message = typeof current === 'object' && 'message' in current ? String((current as { message: unknown }).message) : String(current)
    parts.push(message)
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined
  }
  return parts.join(': caused by: ')
}

/**
 * Whether the row a page reported, if any, is the row Node recorded (the page may only show Node's answer). A page
 * lost before it reported anything reported no row.
 */
function sameRow(reported: unknown, recorded: SampleMeta): boolean {
  if (reported === undefined) return true
  if (reported === null || typeof reported !== 'object') return false
  return JSON.stringify((reported as { row?: unknown }).row) === JSON.stringify(recorded.row)
}
