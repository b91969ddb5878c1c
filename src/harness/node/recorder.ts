// Node's records of a run: its directory (created on first need), each sample's inputs, conversation, final episode,
// score and result.json, and the ledger entry every output is built from. The one place the harness scores; it
// checks no access (the session's SampleGate does) and makes no run decision (run-rules.ts).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { composePrompt } from '../../agents/index.ts'
import type { UsageTotals } from '../../agents/api/index.ts'
import { sha256Hex } from '../../episode/index.ts'
import { baseFields, createScorer, errorFields, scoreFinalEpisode, type ErrorFields, type MetricsRow, type SampleScorer, type ScoredFields } from '../../evaluate/index.ts'
import { findSample, sampleKey, type BenchmarkPackage, type PackageSample } from '../../package/index.ts'
import { codeCommit, RunError, RunWriter, runVersions, type RunStatus } from '../../runs/index.ts'
import type { ScoringBackendChoice } from '../../scoring/gpu/index.ts'
import { PACKAGE_ROOT } from '../../shared/package-root.ts'
import type { FinishSampleRequest, FinishSampleResponse, ScoringTimings } from '../sample-messages.ts'
import type { ExecutionRecord } from './agent-launcher.ts'
import type { SampleLedger } from './ledger.ts'
import { interruptedPlan, interruptedResult, rebuiltReport, savedButLostReport, type FinishReport, type LostStatus, type RecordedPlan } from './lost-samples.ts'
import { rebuildLostSample } from './rebuild-lost-sample.ts'
import { recordedFailure } from './run-plan.ts'
import type { SampleEnd } from './run-rules.ts'
import type { GatedAgentKind } from './sample-gate.ts'

/** Largest single conversation record (JSON characters): tool results with images stay far below. */
export const MAX_RECORD_CHARS = 32 * 1024 * 1024
/** Largest final-scene capture (bytes of PNG). */
export const MAX_CAPTURE_BYTES = 32 * 1024 * 1024
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

export interface RecorderOptions {
  runsRoot: string
  scoringWorkers: number | undefined
  /** The scorer's backend (`auto`, `cpu`, `gpu`); undefined: `createScorer`'s default (AWB_SCORING_BACKEND, else auto). */
  scoringBackend?: ScoringBackendChoice | undefined
  /** Recorded in run.json `options`. */
  recordedOptions: Record<string, unknown>
}

/** What the recorder needs from the rest of the session. */
export interface RecorderHooks {
  /** Written here; read by the session's plans and the reporter. */
  ledger: SampleLedger
  /** The run the new one resumes (run.json `source_run`), or null. */
  sourceRun: () => Promise<string | null>
  /** Each sample's end, as the stop rules count it. */
  onEnd: (end: SampleEnd) => void
  /** A record was refused past the per-sample cap: the sample ends with `message`. */
  onRecordCap: (block: string, sampleId: string, message: string) => Promise<void>
  /** Ctrl-C stopped the run: an agent that did not complete is recorded `interrupted`. */
  isInterrupted: () => boolean
}

/** What Node knows of a finishing sample beside the page's report. */
export interface FinishAccount {
  /** An API agent's spend as the provider reported it to Node. */
  spent: UsageTotals | undefined
  /** result.json `execution` from the execution as reported (see `AgentLauncher.executionRecord`). */
  executionRecord: (reported: FinishSampleRequest['execution']) => ExecutionRecord
}

/** The records of one run in this process; every block's samples share its run directory. */
export class SampleRecorder {
  private readonly pkg: BenchmarkPackage
  private readonly options: RecorderOptions
  private readonly hooks: RecorderHooks
  private run: Promise<RunWriter> | undefined
  private sampleScorer: SampleScorer | undefined
  /** When each running sample started (ISO), for result.json `started_at`. */
  private readonly started = new Map<string, string>()
  private readonly selection: Record<string, string[]> = {}
  /** When and with which SHA-256 each sample's final episode was saved (a page lost after saving is still scored). */
  private readonly savedFinal = new Map<string, { at: number; sha256: string }>()
  /** Conversation appends of each sample still being written (a rebuild reads the log once they have landed). */
  private readonly appending = new Map<string, Set<Promise<void>>>()
  /** Samples whose conversation is closed: a lost sample being rebuilt from it takes no more records. */
  private readonly closedLogs = new Set<string>()

  constructor(pkg: BenchmarkPackage, options: RecorderOptions, hooks: RecorderHooks) {
    this.pkg = pkg
    this.options = options
    this.hooks = hooks
  }

  /** The run directory's writer, created on first need. */
  private runWriter(): Promise<RunWriter> {
    this.run ??= this.hooks.sourceRun().then(sourceRun => RunWriter.create({
      sourceRun,
      runsRoot: this.options.runsRoot,
      selection: this.selection,
      tasks: Object.fromEntries(this.pkg.blocks.map(block => [block.name, block.taskText])),
      referenceModes: Object.fromEntries(this.pkg.blocks.map(block => [block.name, block.referenceMode])),
      options: this.options.recordedOptions,
      benchmark: { root: this.pkg.root, frozen: this.pkg.frozenRelease, revision: null },
      codeCommit: codeCommit(PACKAGE_ROOT),
      versions: runVersions(PACKAGE_ROOT),
    }))
    return this.run
  }

  /** The run directory, once anything was recorded in this process. */
  async runDir(): Promise<string | undefined> {
    return this.run === undefined ? undefined : (await this.run).dir
  }

  /** The run's scorer, created on first use. */
  scorer(): SampleScorer {
    return (this.sampleScorer ??= createScorer({
      ...(this.options.scoringWorkers === undefined ? {} : { workers: this.options.scoringWorkers }),
      backend: this.options.scoringBackend,
    }))
  }

  /** Writes a starting sample's input.json, prompt.txt and a `running` result.json; returns the sample and prompt. */
  async start(block: string, sampleId: string): Promise<{ sample: PackageSample; prompt: string }> {
    const sample = findSample(this.pkg, block, sampleId)
    const blockInfo = this.pkg.blocks.find(candidate => candidate.name === block)!
    const prompt = composePrompt(blockInfo.taskText)
    const run = await this.runWriter()
    ;(this.selection[block] ??= []).push(sampleId)
    await run.updateSelection(this.selection)
    await run.writeSampleInputs(block, sampleId, {
      episode: sample.episodePath.split('/').at(-1),
      episode_id: sample.episodeId,
      sha256: sample.episodeSha256,
      parts: sample.parts,
      initial_path: join(this.pkg.root, sample.episodePath),
      initial_calls: 0,
      identity: blockInfo.identity,
      reference: sample.pages.length === 0 ? null : { reference_mode: blockInfo.referenceMode, pages: sample.pages.map(p => ({ page: p.page, file: p.path.split('/').at(-1), source_sha256: p.sha256 })) },
    }, prompt)
    const startedAt = new Date().toISOString()
    await run.writeResult(block, sampleId, { status: 'running', started_at: startedAt, execution: { status: 'pending' }, archive: { status: 'not_saved' }, agent_outcome: null })
    this.started.set(sampleKey(block, sampleId), startedAt)
    return { sample, prompt }
  }

  /** Appends one record to the sample's conversation.jsonl; past the per-sample cap the sample ends (`onRecordCap`). */
  async append(block: string, sampleId: string, entry: unknown): Promise<void> {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry) || typeof (entry as { type?: unknown }).type !== 'string') {
      throw new TypeError('a conversation record must be an object with a string "type"')
    }
    const text = JSON.stringify(entry)
    if (text.length > MAX_RECORD_CHARS) throw new RangeError(`a conversation record is larger than ${MAX_RECORD_CHARS} characters`)
    const key = sampleKey(block, sampleId)
    if (this.closedLogs.has(key)) throw new RunError('RUN_SAMPLE_SEALED', `${block} / ${sampleId} has ended (its page was lost); its conversation takes no more records`)
    const appended = this.runWriter().then(run => run.appendConversation(block, sampleId, entry as { type: string } & Record<string, unknown>))
    const inFlight = this.appending.get(key) ?? new Set<Promise<void>>()
    this.appending.set(key, inFlight)
    const settled = appended.then(() => undefined, () => undefined)
    inFlight.add(settled)
    void settled.then(() => inFlight.delete(settled))
    try {
      await appended
    } catch (error) {
      // Past the per-sample cap the log stays as it is and the sample ends here, failed with the cap's message: its
      // agent is stopped (the gate aborts its Node-side work) instead of filling the disk or crashing the run.
      if (error instanceof RunError && error.code === 'RUN_RECORD_CAP') await this.hooks.onRecordCap(block, sampleId, error.message)
      throw error
    }
  }

  /** Saves the final episode atomically; returns its SHA-256. */
  async saveFinal(block: string, sampleId: string, bytes: Uint8Array): Promise<string> {
    await (await this.runWriter()).saveFinalEpisode(block, sampleId, bytes)
    const sha256 = await sha256Hex(bytes)
    this.savedFinal.set(sampleKey(block, sampleId), { at: Date.now(), sha256 })
    return sha256
  }

  /**
   * Scores the saved final episode (any saved export is scored, whatever the agent did), writes result.json and the
   * ledger entry (`pending` until then) and returns the official row. An unsaved export gives an error row.
   */
  finish(block: string, sampleId: string, report: FinishReport, account: FinishAccount): Promise<FinishSampleResponse> {
    return this.hooks.ledger.recording(block, sampleId, this.scoreAndRecord(block, sampleId, report, account))
  }

  /**
   * Records a sample whose page was lost as failed with `lost.reason`. A sample that was open (`account`) and had
   * saved its final episode had done its agent's work: the saved world is scored as any saved export is (scoring.md
   * §8.2), with execution `lost.status` and the lost page's report (tool calls, timings) unknown. One that had not, lost with its
   * page (`lost.rebuildAs`: the kind of its agent), has its world rebuilt from the calls Node recorded, saved and
   * scored the same way (the reference runner exports and scores a timed-out world); a world that cannot be rebuilt
   * exactly is not scored, and result.json archive `rebuild` says why.
   */
  async abandon(block: string, sampleId: string, lost: { reason: string; status: LostStatus; rebuildAs?: GatedAgentKind | undefined }, account: FinishAccount | undefined): Promise<void> {
    const key = sampleKey(block, sampleId)
    const saved = this.savedFinal.get(key)
    if (account !== undefined && saved !== undefined) {
      await this.finish(block, sampleId, savedButLostReport(lost.reason, lost.status, saved, this.started.get(key)), account)
      return
    }
    const rebuildAs = account === undefined ? undefined : lost.rebuildAs
    // Counted now when nothing is rebuilt (as always); a rebuilt world is counted by its finish, a failed rebuild below.
    if (rebuildAs === undefined) this.hooks.onEnd({ execution: { status: lost.status }, archive: { status: 'not_saved' } })
    // One recording from the loss to the sample's record: a reader waiting for the sample never sees it unrecorded.
    await this.hooks.ledger.recording(block, sampleId, (async () => {
      const lostAt = Date.now()
      const rebuilt = rebuildAs === undefined ? undefined : await this.rebuild(block, sampleId, rebuildAs)
      let sha256: string | undefined
      if (rebuilt?.status === 'rebuilt') sha256 = await this.saveFinal(block, sampleId, rebuilt.episode).catch(() => undefined)
      if (account !== undefined && rebuilt?.status === 'rebuilt' && sha256 !== undefined) {
        // The loss decides how the execution ended, whatever a CLI agent killed with its page reported of itself.
        const lostAccount: FinishAccount = { ...account, executionRecord: reported => ({ ...account.executionRecord(reported), status: lost.status, error: lost.reason }) }
        await this.finish(block, sampleId, rebuiltReport(lost.reason, lost.status, { sha256, calls: rebuilt.calls, toolCalls: rebuilt.toolCalls, replayed: rebuilt.replayed }, this.started.get(key), lostAt), lostAccount)
        return
      }
      const notRebuilt = rebuilt === undefined
        ? undefined
        : { status: 'not_rebuilt' as const, reason: rebuilt.status === 'not_rebuilt' ? rebuilt.reason : 'the rebuilt final episode could not be saved', tool_calls: rebuilt.toolCalls }
      if (rebuildAs !== undefined) this.hooks.onEnd({ execution: { status: lost.status }, archive: { status: 'not_saved' } })
      const run = await this.runWriter()
      await run.writeResult(block, sampleId, interruptedResult(lost.reason, this.started.get(key) ?? null, lost.status, notRebuilt))
      const { kind: _, ...entry } = interruptedPlan({ block, sampleId, runDir: run.dir, sampleDir: run.sampleDir(block, sampleId) }, lost.reason, lost.status)
      this.hooks.ledger.record(block, sampleId, entry)
      this.started.delete(key)
    })())
  }

  /** Records each of `sampleIds` this run has no record of as never started; returns those it recorded. */
  async neverStarted(block: string, sampleIds: readonly string[], reason: string): Promise<string[]> {
    await this.hooks.ledger.all()
    const run = await this.runWriter()
    const lost: string[] = []
    for (const sampleId of sampleIds) {
      if (this.hooks.ledger.entry(block, sampleId) !== undefined) continue
      ;(this.selection[block] ??= []).push(sampleId)
      await run.writeResult(block, sampleId, interruptedResult(`never started: ${reason}`, null))
      lost.push(sampleId)
    }
    await run.updateSelection(this.selection)
    return lost
  }

  /** Notes in the ledger a sample an earlier run of the chain recorded; a resumed run that only reports still gets its own run directory. */
  async reportRecorded(block: string, sampleId: string, plan: RecordedPlan): Promise<void> {
    const run = await this.runWriter()
    if (plan.runDir !== run.dir && this.hooks.ledger.entry(block, sampleId) === undefined) {
      const { kind: _, ...entry } = plan
      this.hooks.ledger.record(block, sampleId, { ...entry, recordedBy: plan.runDir })
    }
  }

  /** Stops the scorer and writes run.json's final status (if the run directory exists). */
  async close(status: RunStatus, errors: readonly string[], pauseReason: string | undefined): Promise<void> {
    await this.sampleScorer?.close()
    this.sampleScorer = undefined
    if (this.run !== undefined) await (await this.run).finish(status, errors, pauseReason)
  }

  private async scoreAndRecord(block: string, sampleId: string, report: FinishReport, account: FinishAccount): Promise<FinishSampleResponse> {
    const run = await this.runWriter()
    const sample = findSample(this.pkg, block, sampleId)
    if (report.capture !== null) await this.saveCapture(run, block, sampleId, report.capture)
    // An API agent's spend as the provider reported it to Node: the page's own account may be lost (a timeout) or wrong.
    const { spent } = account
    const spentExecution = spent === undefined ? report.execution : { ...report.execution, usage: spent.usage, cost_usd: spent.costUsd }
    // Ctrl-C cut the agent short: whatever it reported, the sample was interrupted (and is run again on resume).
    const execution = this.hooks.isInterrupted() && spentExecution.status !== 'completed' ? { ...spentExecution, status: 'interrupted' as const } : spentExecution
    const started = performance.now()
    const scorer = this.scorer()
    const timing = { queueMs: 0, computeMs: 0 }
    let fields: ScoredFields | ErrorFields
    try {
      if (report.archive.status !== 'saved') throw new Error(`the final episode was not saved (${report.archive.error ?? report.archive.status})`)
      const finalPath = join(run.sampleDir(block, sampleId), 'final.episode.zip')
      const finalBytes = new Uint8Array(await readFile(finalPath))
      fields = await scoreFinalEpisode({ pkg: this.pkg, sample, finalBytes, finalSource: finalPath, scorer, timing })
    } catch (error) {
      fields = errorFields(error)
    }
    const scoring: ScoringTimings = { scoreMs: performance.now() - started, scoreQueueMs: timing.queueMs, scoreComputeMs: timing.computeMs }
    const base = baseFields({ block, sampleId, run: run.dir, durationSeconds: report.durationSeconds, usage: execution.usage, costUsd: execution.cost_usd, toolCalls: report.toolCalls })
    const row: MetricsRow = { ...base, ...fields }
    // A CLI agent's own report (exit code, parse errors, its errors, stderr) held on the Node side wins over the page's.
    const recorded = account.executionRecord(execution)
    const completed = recorded.status === 'completed' && report.archive.status === 'saved'
    await run.writeResult(block, sampleId, {
      status: completed ? 'completed' : 'failed',
      started_at: this.started.get(sampleKey(block, sampleId)) ?? null,
      finished_at: new Date().toISOString(),
      execution: recorded,
      archive: report.archive,
      agent_outcome: report.agentOutcome,
      cleanup_error: null,
      duration_seconds: report.durationSeconds,
      tool_calls: report.toolCalls,
      harness: { timings_ms: { ...report.timings, ...scoring }, scoring_backend: scorer.backend },
      // The official row as scored now, so a resumed run reports it without scoring again.
      metrics: row,
    })
    this.started.delete(sampleKey(block, sampleId))
    this.savedFinal.delete(sampleKey(block, sampleId))
    this.hooks.onEnd({ execution: recorded, archive: report.archive })
    const timings = { ...report.timings, ...scoring }
    this.hooks.ledger.record(block, sampleId, { row, timings, backend: scorer.backend, runDir: run.dir, sampleDir: run.sampleDir(block, sampleId), failure: recordedFailure({ status: completed ? 'completed' : 'failed', execution: recorded, archive: report.archive }) })
    return { row, scoring, backend: scorer.backend, runDir: run.dir, sampleDir: run.sampleDir(block, sampleId) }
  }

  /**
   * Closes the sample's conversation, waits for the appends already accepted, and rebuilds its world from what Node
   * wrote (`rebuildLostSample`). The run's directory exists: the sample started.
   */
  private async rebuild(block: string, sampleId: string, agentKind: GatedAgentKind) {
    const key = sampleKey(block, sampleId)
    this.closedLogs.add(key)
    await Promise.all(this.appending.get(key) ?? [])
    this.appending.delete(key)
    try {
      const run = await this.runWriter()
      return await rebuildLostSample({ pkg: this.pkg, block, sample: findSample(this.pkg, block, sampleId), sampleDir: run.sampleDir(block, sampleId), agentKind })
    } catch (error) {
      return { status: 'not_rebuilt' as const, reason: `the rebuild failed: ${error instanceof Error ? error.message : String(error)}`, toolCalls: 0 }
    }
  }

  /** Keeps the page's picture of the final scene as final.png (a PNG, or nothing). */
  private async saveCapture(run: RunWriter, block: string, sampleId: string, base64: string): Promise<void> {
    if (base64.length > Math.ceil(MAX_CAPTURE_BYTES / 3) * 4) return
    const bytes = new Uint8Array(Buffer.from(base64, 'base64'))
    if (!PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return
    await run.saveSampleFile(block, sampleId, 'final.png', bytes)
  }
}
