// Node side of a benchmark run as the page's browser commands reach it: checks each call with the SampleGate (the
// page is untrusted: agents run there, so it never gets ground truth, a second score, or a say in where files go)
// and hands the work to the recorder, the agent launcher, the model-request proxy and the run rules.
import type { ConversationEntry } from '../../agents/index.ts'
import type { PageRelayOptions } from '../../mcp/index.ts'
import { openPackage, type BenchmarkPackage } from '../../package/index.ts'
import { FinishSampleRequestSchema, type CliAgentResult, type FinishSampleResponse, type SamplePlan, type StartSampleResponse } from '../sample-messages.ts'
import { AgentLauncher, type AgentLauncherOptions } from './agent-launcher.ts'
import { HungPageWatch, type HungPageSettings } from './hung-pages.ts'
import { SampleLedger } from './ledger.ts'
import { endedRunReason, type LostStatus } from './lost-samples.ts'
import { ModelRequestProxy, type ModelProxyOptions } from './model-proxy.ts'
import { SampleRecorder, type FinishAccount, type RecorderOptions } from './recorder.ts'
import { RunPlan, type RunPlanOptions } from './run-plan.ts'
import { STOP_REASONS } from './run-rules.ts'
import { SampleAccessError, SampleGate, type CommandCaller, type OpenSample } from './sample-gate.ts'
import { SampleInputs, type InputGranter } from './sample-inputs.ts'

export interface BenchmarkSessionOptions extends RecorderOptions, AgentLauncherOptions, ModelProxyOptions, RunPlanOptions, HungPageSettings {
  benchmark: string
  /** Grants an open sample same-origin URLs of its agent-visible inputs (the plugin's input route), revoked at finish. */
  inputs: InputGranter
  /** Resolves when Vitest reports `sampleId`'s test running in `block`'s project (see SampleGateOptions). */
  awaitRunningTest?: (block: string, sampleId: string) => Promise<void>
}

/** Largest final episode the page may hand over (bytes): far above any real episode, far below memory limits. */
export const MAX_FINAL_EPISODE_BYTES = 256 * 1024 * 1024
/** Time on top of the agent's limit for opening the environment before the sample's Node-side work is cut off. */
const OPEN_ALLOWANCE_MS = 120_000

/** One benchmark run in this process: every block project's samples share it (and its run directory). */
export class BenchmarkSession {
  readonly pkg: BenchmarkPackage
  /** What Node recorded of each sample (written by the recorder): the source of every output of the run. */
  readonly ledger = new SampleLedger()
  private readonly options: BenchmarkSessionOptions
  private readonly gate: SampleGate
  private readonly hungPages: HungPageWatch
  private readonly recorder: SampleRecorder
  private readonly launcher: AgentLauncher
  private readonly models: ModelRequestProxy
  private readonly plan: RunPlan
  private readonly inputs: SampleInputs
  /** Set by `interrupt()`: samples still running are recorded `interrupted`. */
  private interrupted = false

  private constructor(pkg: BenchmarkPackage, options: BenchmarkSessionOptions) {
    this.pkg = pkg
    this.options = options
    this.hungPages = new HungPageWatch({
      timeLimitMs: options.sampleTimeoutSeconds * 1000,
      openAllowanceMs: OPEN_ALLOWANCE_MS,
      ...(options.hungPageGraceSeconds === undefined ? {} : { graceMs: options.hungPageGraceSeconds * 1000 }),
      onHung: (block, _sampleId, reason) => options.onPageHung?.(block, reason),
    })
    this.gate = new SampleGate({
      blocks: new Map(pkg.blocks.map(block => [block.name, new Set(block.samples.map(sample => sample.id))])),
      ...(options.awaitRunningTest === undefined ? {} : { awaitRunningTest: options.awaitRunningTest }),
    })
    this.plan = new RunPlan(pkg, options, { ledger: this.ledger, scorer: () => this.recorder.scorer() })
    this.recorder = new SampleRecorder(pkg, options, {
      ledger: this.ledger,
      sourceRun: () => this.plan.sourceRun(),
      onEnd: end => this.plan.stopRules.record(end),
      // Past the cap the log is cut short: the sample ends as it is, its world not rebuilt from an incomplete record.
      onRecordCap: (block, sampleId, message) => this.endSample(block, sampleId, { reason: message, status: 'interrupted', isPageLost: false }),
      isInterrupted: () => this.interrupted,
    })
    this.launcher = new AgentLauncher(pkg, options)
    this.models = new ModelRequestProxy(options)
    this.inputs = new SampleInputs(options.inputs)
  }

  /** Opens `options.benchmark`, or takes the already opened `pkg`. */
  static async open(options: BenchmarkSessionOptions & { pkg?: BenchmarkPackage }): Promise<BenchmarkSession> {
    return new BenchmarkSession(options.pkg ?? await openPackage(options.benchmark), options)
  }

  /** The run directory, once a sample has started in this process. */
  runDir(): Promise<string | undefined> {
    return this.recorder.runDir()
  }

  /**
   * What the run does with the running test's sample: run it, report the result this run or an earlier run of the
   * resumed chain recorded, or not start it because the run stopped. Only the running test's own sample can be asked about.
   */
  async samplePlan(caller: CommandCaller, block: string, sampleId: string): Promise<SamplePlan> {
    await this.gate.assertRunningTest(caller, block, sampleId)
    const plan = await this.plan.planOf(block, sampleId)
    if (plan.kind === 'recorded') await this.recorder.reportRecorded(block, sampleId, plan)
    return plan
  }

  /**
   * Stops the run as Ctrl-C asks: no sample starts any more, the agents' Node-side work (model requests, CLI
   * agents) ends, and samples still running are recorded `interrupted` once their world is saved and scored.
   */
  interrupt(): void {
    this.interrupted = true
    this.plan.stopRules.stop(STOP_REASONS.interrupted)
    this.gate.abortAll(STOP_REASONS.interrupted)
  }

  /** Why the run stopped dispatching samples, if it did. */
  get stopReason(): string | undefined {
    return this.plan.stopRules.reason
  }

  /**
   * Opens the running test's sample (once), writes its inputs (input.json, prompt.txt, a pending result) and tells
   * the page what to load: same-origin URLs of the agent-visible inputs only, never a file path.
   */
  async startSample(caller: CommandCaller, block: string, sampleId: string): Promise<StartSampleResponse> {
    const plan = await this.plan.planOf(block, sampleId)
    if (plan.kind !== 'run') throw new SampleAccessError(plan.kind === 'stopped' ? 'RUN_STOPPED' : 'ALREADY_RECORDED', plan.kind === 'stopped' ? `${block} / ${sampleId} is not started: ${plan.reason}` : `${block} / ${sampleId} was recorded by ${plan.runDir}; a resumed run reports it instead of running it`)
    await this.gate.open(caller, block, sampleId, this.launcher.kind, this.options.sampleTimeoutSeconds * 1000 + OPEN_ALLOWANCE_MS)
    this.hungPages.opened(block, sampleId)
    try {
      const { sample, prompt } = await this.recorder.start(block, sampleId)
      const { episodeUrl, pages } = this.inputs.grant(block, sample)
      return { prompt, episodeUrl, pages, timeoutMs: this.options.sampleTimeoutSeconds * 1000, agent: await this.launcher.spec(sample) }
    } catch (error) {
      await this.endSample(block, sampleId, { reason: `the sample could not be started: ${error instanceof Error ? error.message : String(error)}`, status: 'interrupted', isPageLost: false })
      throw error
    }
  }

  /**
   * The page of `block`'s project was lost (its browser died or the page crashed) and its test file will run again
   * in a new page: the sample it had open is recorded as failed with `reason`, and the new page reports what this
   * run already recorded instead of running it again. Returns the sample that was open, if any.
   */
  async pageLost(block: string, reason: string, status: LostStatus = 'interrupted'): Promise<string | undefined> {
    const open = this.gate.openSamples().find(sample => sample.block === block)
    if (open === undefined) return undefined
    await this.abandonSample(block, open.sampleId, reason, status)
    return open.sampleId
  }

  /**
   * The page of `block`'s project is gone for good: the sample it had open and every sample of the block this run
   * has not recorded are recorded as failed with `reason` (execution `interrupted`: a resume runs them again). Only
   * the open sample counts for the stop rules, so the other blocks go on. Returns the samples recorded here.
   */
  async blockLost(block: string, reason: string): Promise<string[]> {
    const samples = this.pkg.blocks.find(candidate => candidate.name === block)?.samples ?? []
    const open = await this.pageLost(block, reason)
    const neverStarted = await this.recorder.neverStarted(block, samples.map(sample => sample.id), reason)
    return open === undefined ? neverStarted : [open, ...neverStarted]
  }

  /**
   * Closes a sample whose test ended without finishing it (the page crashed, hung or was closed, or the run ended with
   * its browser): it is recorded as failed with `reason` and its project may go on with its next sample. Its world is
   * still scored: the one it saved, or else the one Node rebuilds from the tool calls it recorded
   * (`SampleRecorder.abandon`). A finished sample is left as it is.
   */
  async abandonSample(block: string, sampleId: string, reason: string, status: LostStatus = 'interrupted'): Promise<void> {
    await this.endSample(block, sampleId, { reason, status, isPageLost: true })
  }

  /** Asked by a running page agent's harness every second: why to stop its agent now (Ctrl-C, time limit), or null. */
  heartbeat(caller: CommandCaller, block: string, sampleId: string): { stop: string | null } {
    const open = this.gate.active(caller, block, sampleId, 'check in')
    this.hungPages.beat(block, sampleId)
    if (!open.signal.aborted || open.saved) return { stop: null }
    const reason: unknown = open.signal.reason
    return { stop: reason instanceof Error ? reason.message : String(reason) }
  }

  /** Appends one record to the open sample's conversation.jsonl. */
  async record(caller: CommandCaller, block: string, sampleId: string, entry: unknown): Promise<void> {
    this.gate.active(caller, block, sampleId, 'record')
    this.hungPages.beat(block, sampleId)
    await this.recorder.append(block, sampleId, entry)
  }

  /** Saves the exported final episode atomically, once per sample; returns its SHA-256. The agent's work ends here. */
  async saveFinal(caller: CommandCaller, block: string, sampleId: string, base64: unknown): Promise<string> {
    if (typeof base64 !== 'string') throw new TypeError('the final episode must be a base64 string')
    // Checked before decoding: base64 is 4/3 of the bytes.
    if (base64.length > Math.ceil(MAX_FINAL_EPISODE_BYTES / 3) * 4) throw new RangeError(`the final episode is larger than ${MAX_FINAL_EPISODE_BYTES} bytes`)
    this.gate.claimSave(caller, block, sampleId)
    return this.recorder.saveFinal(block, sampleId, new Uint8Array(Buffer.from(base64, 'base64')))
  }

  /**
   * Sends one model request of the open sample's API agent (the key stays in Node), aborted when the agent's work
   * ends; the usage and cost the provider reports are counted in Node (`ModelRequestProxy`).
   */
  async modelRequest(caller: CommandCaller, request: unknown): Promise<unknown> {
    const open = this.gate.openSampleOf(caller, 'send a model request')
    if (open.agentKind !== 'api') throw new SampleAccessError('WRONG_AGENT', `${open.block} / ${open.sampleId} runs no API agent; model requests are refused`)
    if (open.signal.aborted) throw new SampleAccessError('NOT_OPEN', `the agent of ${open.block} / ${open.sampleId} has stopped: ${String((open.signal.reason as Error | undefined)?.message ?? open.signal.reason)}`)
    return this.models.send(open, request)
  }

  /** Finishes the sample once: its saved final episode scored and recorded (`SampleRecorder.finish`); returns the row. */
  async finishSample(caller: CommandCaller, block: string, sampleId: string, request: unknown): Promise<FinishSampleResponse> {
    const report = FinishSampleRequestSchema.parse(request)
    // Closed before anything is scored: a second finish, an early one or one racing this one gets no score.
    const open = this.gate.claimFinish(caller, block, sampleId)
    this.hungPages.ended(block, sampleId)
    this.inputs.revoke(block, sampleId)
    return this.recorder.finish(block, sampleId, report, this.accountOf(open))
  }

  /** Runs the sample's CLI agent or external program against the tools the page exposed in `frame` (`AgentLauncher.runCli`). */
  async runCliAgent(caller: CommandCaller, block: string, sampleId: string, frame: PageRelayOptions['target']): Promise<CliAgentResult> {
    const open = this.gate.claimCli(caller, block, sampleId)
    return this.launcher.runCli(open, frame, (entry: ConversationEntry) => this.recorder.append(block, sampleId, entry))
  }

  /**
   * Ends the run: samples still open are recorded as failed (their page died with the run: a browser lost beyond
   * what the plugin recovers takes the whole Vitest run down), then the final status in run.json (`paused` with its
   * reason when the run stopped) with the run-level errors, and the scoring workers stop.
   */
  async close(status: 'completed' | 'failed', errors: readonly string[] = []): Promise<void> {
    // Taken before the open samples are closed below: the run's end is no stop rule's doing.
    const stopped = this.plan.stopRules.reason
    const reason = endedRunReason(errors)
    for (const open of this.gate.openSamples()) await this.abandonSample(open.block, open.sampleId, reason)
    this.hungPages.close()
    this.gate.abortAll('the run has ended')
    this.inputs.revokeAll()
    await this.recorder.close(stopped === undefined ? status : 'paused', errors, stopped)
  }

  /**
   * Ends an open sample without its page's finish. `isPageLost`: its page is gone with the world it held, which Node
   * then rebuilds from its records; otherwise (a start that failed, a record past the cap) nothing is rebuilt.
   */
  private async endSample(block: string, sampleId: string, end: { reason: string; status: LostStatus; isPageLost: boolean }): Promise<void> {
    const open = this.gate.openSamples().find(sample => sample.block === block && sample.sampleId === sampleId)
    if (!this.gate.abandon(block, sampleId, end.reason)) return
    this.hungPages.ended(block, sampleId)
    this.inputs.revoke(block, sampleId)
    const rebuildAs = end.isPageLost ? open?.agentKind : undefined
    await this.recorder.abandon(block, sampleId, { reason: end.reason, status: end.status, rebuildAs }, open === undefined ? undefined : this.accountOf(open))
  }

  /** What Node knows of `open`'s agent beside its page's report (taken once, as the sample ends). */
  private accountOf(open: OpenSample): FinishAccount {
    const { block, sampleId } = open
    return { spent: this.models.takeSpend(open), executionRecord: reported => this.launcher.executionRecord(block, sampleId, reported, this.interrupted) }
  }
}
