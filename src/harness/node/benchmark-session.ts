// Node side of a benchmark run: opens the package, writes the run directory, resolves agents, saves and scores
// final episodes. Serves the page through its methods, each checked by the SampleGate: the page is untrusted
// (agents run there), so it never gets ground truth, a second score, or a say in where files go.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliAgentOnRelay, summarizeFailure, type CliExecution } from '../../agents/cli/index.ts'
import { runExternalAgentOnRelay } from '../../agents/external/index.ts'
import type { SandboxSettings } from '../../agents/sandbox/index.ts'
import { createPageRelay, type PageRelayOptions } from '../../mcp/index.ts'
import { composePrompt, type ConversationEntry } from '../../agents/index.ts'
import { ModelRequestSchema, responseUsage, UsageTotals } from '../../agents/api/index.ts'
import { sha256Hex } from '../../episode/index.ts'
import { createScorer, errorFields, scoreFinalEpisode, type ErrorFields, type MetricsRow, type SampleScorer, type ScoredFields } from '../../evaluate/index.ts'
import { modelRequest } from '../../llm/index.ts'
import { findSample, openPackage, pageContentType, readPage, sampleKey, type BenchmarkPackage } from '../../package/index.ts'
import { codeCommit, RunError, RunWriter, runVersions } from '../../runs/index.ts'
import { PACKAGE_ROOT } from '../../shared/package-root.ts'
import { FinishSampleRequestSchema, type CliAgentResult, type FinishSampleRequest, type FinishSampleResponse, type SamplePlan, type ScoringTimings, type StartSampleResponse } from '../protocol.ts'
import type { AgentRealmBundler } from './agent-bundle.ts'
import { agentFor, agentKindOf } from './agent-spec.ts'
import { HungPageWatch } from './hung-pages.ts'
import { SampleLedger } from './ledger.ts'
import { interruptedPlan, interruptedResult, type LostStatus } from './lost-samples.ts'
import { planResume, recordedFailure, recordedPlan, StopRules, STOP_REASONS, type ResumePlan } from './run-plan.ts'
import { SampleAccessError, SampleGate, type CommandCaller, type OpenSample } from './sample-gate.ts'

export interface BenchmarkSessionOptions {
  benchmark: string
  runsRoot: string
  agent: string
  model: string | undefined
  demonstrations: string
  sampleTimeoutSeconds: number
  scoringWorkers: number | undefined
  /** Grants an open sample same-origin URLs of its agent-visible inputs (the plugin's input route), revoked at finish. */
  inputs: { grant(block: string, sampleId: string): { episodeUrl: string; pageUrl(page: number): string; revoke(): void } }
  /** Bundles the code page agents run in, in their realm (agent-bundle.ts; absent: no page agents can run). */
  agentRealm?: AgentRealmBundler | undefined
  /** Recorded in run.json `options`. */
  recordedOptions: Record<string, unknown>
  /** A program to run instead of `codex` / `claude` (its arguments come first), e.g. a wrapper or a test double. */
  agentCommand?: { command: string; args: string[] } | undefined
  /** Reasoning effort for Codex / Claude Code, free text (undefined: the CLI's default). */
  effort?: string | undefined
  /** Codex `-c KEY=VALUE` overrides (provider and endpoint keys only). */
  codexConfig?: readonly string[] | undefined
  /** The program of an external agent (`agent: {command}`); used when `agent` is `external`. */
  externalAgent?: readonly [string, ...string[]] | undefined
  /** How CLI and external agent processes are contained (the plugin's AWB_SANDBOX settings); default: sandboxed. */
  sandbox?: SandboxSettings | undefined
  /** Resolves when Vitest reports `sampleId`'s test running in `block`'s project (see SampleGateOptions). */
  awaitRunningTest?: (block: string, sampleId: string) => Promise<void>
  /** Sends one model request to the provider (default: `modelRequest`, keys from the environment). */
  sendModelRequest?: (request: unknown, signal: AbortSignal) => Promise<unknown>
  /**
   * A block's page stopped responding past its sample's time limit (see HungPageWatch): the caller closes that page,
   * and its loss comes back through `pageLost` with `reason`. Without it, nothing happens.
   */
  onPageHung?: (block: string, reason: string) => void
  /** Silence and time past the limit after which a page counts as hung, in seconds; default HUNG_PAGE_GRACE_MS. */
  hungPageGraceSeconds?: number | undefined
  /** Continue this run chain (a run directory, or `latest` in `runsRoot`): samples it recorded are reported, not run. */
  resume?: string | undefined
  /** With `resume`: failed samples run again too. */
  retryFailed?: boolean | undefined
}

/** This harness's own folder: its git commit and installed versions are recorded in run.json. */
/** Largest final episode the page may hand over (bytes): far above any real episode, far below memory limits. */
export const MAX_FINAL_EPISODE_BYTES = 256 * 1024 * 1024
/** Largest single conversation record (JSON characters): tool results with images stay far below. */
export const MAX_RECORD_CHARS = 32 * 1024 * 1024
/** Largest final-scene capture (bytes of PNG). */
export const MAX_CAPTURE_BYTES = 32 * 1024 * 1024
/** Time on top of the agent's limit for opening the environment before the sample's Node-side work is cut off. */
const OPEN_ALLOWANCE_MS = 120_000
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]


/** One benchmark run in this process: every block project's samples share it (and its run directory). */
export class BenchmarkSession {
  readonly pkg: BenchmarkPackage
  private readonly options: BenchmarkSessionOptions
  private run: Promise<RunWriter> | undefined
  private scorer: SampleScorer | undefined
  /** When each running sample started (ISO), for result.json `started_at`. */
  private readonly started = new Map<string, string>()
  private readonly selection: Record<string, string[]> = {}
  /** What each CLI agent reported, kept on the Node side until its result.json is written (the page gets a summary). */
  private readonly cliExecutions = new Map<string, CliExecution>()
  private readonly gate: SampleGate
  /** What the provider reported per open API-agent sample, counted here so that no page failure can lose it. */
  private readonly spend = new Map<OpenSample, UsageTotals>()
  /** Ends the input URLs of each open sample. */
  private readonly revokeInputs = new Map<string, () => void>()
  private readonly stopRules = new StopRules()
  private resumePlan: Promise<ResumePlan | undefined> | undefined
  /** Set by `interrupt()`: samples still running are recorded `interrupted`. */
  private interrupted = false
  /**
   * What Node recorded of each sample (finished, abandoned, or reported from an earlier run of a resumed chain): the
   * source of every output of the run. A block's test file that runs again in this run (after its browser died, see
   * `pageLost`) reports these entries instead of running the samples again.
   */
  readonly ledger = new SampleLedger()
  /** Watches the open samples' pages for a hang (no heartbeat, past the time limit). */
  private readonly hungPages: HungPageWatch
  /** When and with which SHA-256 each sample's final episode was saved (a page lost after saving is still scored). */
  private readonly savedFinal = new Map<string, { at: number; sha256: string }>()

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
  }

  /** Opens `options.benchmark`, or takes the already opened `pkg`. */
  static async open(options: BenchmarkSessionOptions & { pkg?: BenchmarkPackage }): Promise<BenchmarkSession> {
    return new BenchmarkSession(options.pkg ?? await openPackage(options.benchmark), options)
  }

  /** The run directory, once a sample has started in this process. */
  async runDir(): Promise<string | undefined> {
    return this.run === undefined ? undefined : (await this.run).dir
  }

  /**
   * What the run does with the running test's sample: run it, report the result an earlier run of the resumed
   * chain recorded, or skip it because the run stopped. Only the running test's own sample can be asked about.
   */
  async samplePlan(caller: CommandCaller, block: string, sampleId: string): Promise<SamplePlan> {
    await this.gate.assertRunningTest(caller, block, sampleId)
    const plan = await this.planOf(block, sampleId)
    if (plan.kind === 'recorded') {
      // A resumed run that only reports still gets its own run directory (source_run, summaries).
      const run = await this.runWriter()
      if (plan.runDir !== run.dir && this.ledger.entry(block, sampleId) === undefined) {
        const { kind: _, ...entry } = plan
        this.ledger.record(block, sampleId, { ...entry, recordedBy: plan.runDir })
      }
    }
    return plan
  }

  /**
   * Stops the run as Ctrl-C asks: no sample starts any more, the agents' Node-side work (model requests, CLI
   * agents) ends, and samples still running are recorded `interrupted` once their world is saved and scored.
   */
  interrupt(): void {
    this.interrupted = true
    this.stopRules.stop(STOP_REASONS.interrupted)
    this.gate.abortAll(STOP_REASONS.interrupted)
  }

  /** Why the run stopped dispatching samples, if it did. */
  get stopReason(): string | undefined {
    return this.stopRules.reason
  }

  /**
   * Opens the running test's sample (once), writes its inputs (input.json, prompt.txt, a pending result) and tells
   * the page what to load: same-origin URLs of the agent-visible inputs only, never a file path.
   */
  async startSample(caller: CommandCaller, block: string, sampleId: string): Promise<StartSampleResponse> {
    const plan = await this.planOf(block, sampleId)
    if (plan.kind !== 'run') throw new SampleAccessError(plan.kind === 'skip' ? 'RUN_STOPPED' : 'ALREADY_RECORDED', plan.kind === 'skip' ? `${block} / ${sampleId} is not started: ${plan.reason}` : `${block} / ${sampleId} was recorded by ${plan.runDir}; a resumed run reports it instead of running it`)
    await this.gate.open(caller, block, sampleId, agentKindOf(this.options.agent), this.options.sampleTimeoutSeconds * 1000 + OPEN_ALLOWANCE_MS)
    this.hungPages.opened(block, sampleId)
    try {
      return await this.prepareSample(block, sampleId)
    } catch (error) {
      await this.abandonSample(block, sampleId, `the sample could not be started: ${error instanceof Error ? error.message : String(error)}`)
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
    await this.ledger.all()
    const run = await this.runWriter()
    const lost: string[] = open === undefined ? [] : [open]
    for (const sample of samples) {
      if (this.ledger.entry(block, sample.id) !== undefined) continue
      ;(this.selection[block] ??= []).push(sample.id)
      await run.writeResult(block, sample.id, interruptedResult(`never started: ${reason}`, null))
      lost.push(sample.id)
    }
    await run.updateSelection(this.selection)
    return lost
  }

  /**
   * Closes a sample whose test ended without finishing it (the page crashed or was closed): it is recorded as
   * failed with `reason`, and its project may go on with its next sample. A finished sample is left as it is. When
   * its final episode was already saved, the agent's work was done: the saved world is scored as any saved export is
   * (scoring.md §8.2), with execution `interrupted` and the page's lost report (tool calls, timings) unknown.
   */
  async abandonSample(block: string, sampleId: string, reason: string, status: LostStatus = 'interrupted'): Promise<void> {
    const open = this.gate.openSamples().find(sample => sample.block === block && sample.sampleId === sampleId)
    if (!this.gate.abandon(block, sampleId, reason)) return
    this.hungPages.ended(block, sampleId)
    const saved = this.savedFinal.get(sampleKey(block, sampleId))
    if (open !== undefined && saved !== undefined) {
      await this.ledger.recording(block, sampleId, this.scoreAndRecord(open, block, sampleId, savedButLostReport(reason, status, saved, this.started.get(sampleKey(block, sampleId)))))
      return
    }
    this.stopRules.record({ execution: { status }, archive: { status: 'not_saved' } })
    this.revokeInputs.get(sampleKey(block, sampleId))?.()
    this.revokeInputs.delete(sampleKey(block, sampleId))
    await this.ledger.recording(block, sampleId, (async () => {
      const run = await this.runWriter()
      await run.writeResult(block, sampleId, interruptedResult(reason, this.started.get(sampleKey(block, sampleId)) ?? null, status))
      const { kind: _, ...entry } = interruptedPlan({ block, sampleId, runDir: run.dir, sampleDir: run.sampleDir(block, sampleId) }, reason, status)
      this.ledger.record(block, sampleId, entry)
      this.started.delete(sampleKey(block, sampleId))
    })())
  }

  private async prepareSample(block: string, sampleId: string): Promise<StartSampleResponse> {
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
    const inputs = this.options.inputs.grant(block, sampleId)
    this.revokeInputs.set(sampleKey(block, sampleId), inputs.revoke)
    return {
      prompt,
      episodeUrl: inputs.episodeUrl,
      pages: sample.pages.map(page => ({ page: page.page, url: inputs.pageUrl(page.page), mimeType: pageContentType(page.path) })),
      timeoutMs: this.options.sampleTimeoutSeconds * 1000,
      agent: await agentFor(this.options, sample),
    }
  }

  /**
   * Asked by a running page agent's harness every second: the reason to stop its agent now (Ctrl-C, the time limit
   * passed on this side), or null to go on.
   */
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
    await this.appendRecord(block, sampleId, entry)
  }

  /** Saves the exported final episode atomically, once per sample; returns its SHA-256. The agent's work ends here. */
  async saveFinal(caller: CommandCaller, block: string, sampleId: string, base64: unknown): Promise<string> {
    if (typeof base64 !== 'string') throw new TypeError('the final episode must be a base64 string')
    // Checked before decoding: base64 is 4/3 of the bytes.
    if (base64.length > Math.ceil(MAX_FINAL_EPISODE_BYTES / 3) * 4) throw new RangeError(`the final episode is larger than ${MAX_FINAL_EPISODE_BYTES} bytes`)
    this.gate.claimSave(caller, block, sampleId)
    const bytes = new Uint8Array(Buffer.from(base64, 'base64'))
    await (await this.runWriter()).saveFinalEpisode(block, sampleId, bytes)
    const sha256 = await sha256Hex(bytes)
    this.savedFinal.set(sampleKey(block, sampleId), { at: Date.now(), sha256 })
    return sha256
  }

  /**
   * Sends one model request of the open sample's API agent to the provider (the key stays here). The request is
   * aborted when the agent's work ends (final episode saved, sample finished, time limit passed); the provider's
   * reported usage and cost are counted here, so they survive whatever happens to the page.
   */
  async modelRequest(caller: CommandCaller, request: unknown): Promise<unknown> {
    const open = this.gate.openSampleOf(caller, 'send a model request')
    if (open.agentKind !== 'api') throw new SampleAccessError('WRONG_AGENT', `${open.block} / ${open.sampleId} runs no API agent; model requests are refused`)
    if (open.signal.aborted) throw new SampleAccessError('NOT_OPEN', `the agent of ${open.block} / ${open.sampleId} has stopped: ${String((open.signal.reason as Error | undefined)?.message ?? open.signal.reason)}`)
    const send = this.options.sendModelRequest ?? ((body: unknown, signal: AbortSignal) => modelRequest(body, { signal }))
    const json = await send(request, open.signal)
    const parsed = ModelRequestSchema.safeParse(request)
    if (parsed.success) {
      const totals = this.spend.get(open) ?? new UsageTotals()
      this.spend.set(open, totals)
      totals.add(responseUsage(parsed.data.provider, json))
    }
    return json
  }

  /**
   * Scores the saved final episode (any saved export is scored, whatever the agent did), writes result.json
   * and returns the official row. An unsaved export gives an error row (PA 0, SR 0, SCD null).
   */
  async finishSample(caller: CommandCaller, block: string, sampleId: string, request: unknown): Promise<FinishSampleResponse> {
    const report = FinishSampleRequestSchema.parse(request)
    // Closed before anything is scored: a second finish, an early one or one racing this one gets no score.
    const open = this.gate.claimFinish(caller, block, sampleId)
    this.hungPages.ended(block, sampleId)
    return this.ledger.recording(block, sampleId, this.scoreAndRecord(open, block, sampleId, report))
  }

  private async scoreAndRecord(open: OpenSample, block: string, sampleId: string, report: FinishReport): Promise<FinishSampleResponse> {
    const spent = this.spend.get(open)
    this.spend.delete(open)
    this.revokeInputs.get(sampleKey(block, sampleId))?.()
    this.revokeInputs.delete(sampleKey(block, sampleId))
    const run = await this.runWriter()
    const sample = findSample(this.pkg, block, sampleId)
    if (report.capture !== null) await this.saveCapture(run, block, sampleId, report.capture)
    // An API agent's spend as the provider reported it to Node: the page's own account may be lost (a timeout) or wrong.
    const spentExecution = spent === undefined ? report.execution : { ...report.execution, usage: spent.usage, cost_usd: spent.costUsd }
    // Ctrl-C cut the agent short: whatever it reported, the sample was interrupted (and is run again on resume).
    const execution = this.interrupted && spentExecution.status !== 'completed' ? { ...spentExecution, status: 'interrupted' as const } : spentExecution
    const started = performance.now()
    const scorer = this.sampleScorer()
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
    const row: MetricsRow = {
      block,
      sample_id: sampleId,
      run: run.dir,
      duration_seconds: report.durationSeconds,
      usage: execution.usage,
      cost_usd: execution.cost_usd,
      tool_calls: report.toolCalls,
      attempt_finished: true,
      ...fields,
    }
    // A CLI agent's own report (exit code, parse errors, its errors, stderr) held on the Node side wins over the page's.
    const recorded = this.executionRecord(block, sampleId, execution)
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
    this.stopRules.record({ execution: recorded, archive: report.archive })
    const timings = { ...report.timings, ...scoring }
    this.ledger.record(block, sampleId, { row, timings, backend: scorer.backend, runDir: run.dir, sampleDir: run.sampleDir(block, sampleId), failure: recordedFailure({ status: completed ? 'completed' : 'failed', execution: recorded, archive: report.archive }) })
    return { row, scoring, backend: scorer.backend, runDir: run.dir, sampleDir: run.sampleDir(block, sampleId) }
  }

  /**
   * Runs the sample's CLI agent (Codex CLI / Claude Code) in a private workspace against the page's tools,
   * reached through `frame` (the page must have exposed its registered tools with `exposeToolRelay`).
   */
  async runCliAgent(caller: CommandCaller, block: string, sampleId: string, frame: PageRelayOptions['target']): Promise<CliAgentResult> {
    const open = this.gate.claimCli(caller, block, sampleId)
    const sample = findSample(this.pkg, block, sampleId)
    const spec = await agentFor(this.options, sample)
    if (spec.kind !== 'cli') throw new Error(`the configured agent of ${block}/${sampleId} is not a CLI agent`)
    const blockInfo = this.pkg.blocks.find(candidate => candidate.name === block)!
    // Page bytes are re-hashed on read; the CLI runner copies them into the workspace as reference-000N.<ext>.
    const referencePages = await Promise.all(sample.pages.map(async page => ({ page: page.page, mimeType: pageContentType(page.path), bytes: await readPage(this.pkg, page) })))
    const workspace = await mkdtemp(join(tmpdir(), 'awb-agent-'))
    try {
      const relay = createPageRelay({ target: frame, page: { id: 1, url: `awb://${block}/${sample.slug}`, title: `${block} / ${sampleId}` }, referencePages })
      const common = {
        prompt: composePrompt(blockInfo.taskText),
        relay,
        workspace,
        timeoutMs: this.options.sampleTimeoutSeconds * 1000,
        signal: open.signal,
        sandbox: this.options.sandbox,
        onRecord: (entry: ConversationEntry) => this.appendRecord(block, sampleId, entry),
      }
      const run = spec.cli === 'external'
        ? await runExternalAgentOnRelay({ ...common, command: this.externalProgram(block, sampleId), cwd: process.cwd(), sample: { block, sampleId }, model: this.options.model })
        : await runCliAgentOnRelay({
          ...common,
          kind: spec.cli,
          model: spec.model,
          effort: this.options.effort,
          codexConfig: this.options.codexConfig,
          ...(this.options.agentCommand === undefined ? {} : { executable: this.options.agentCommand }),
        })
      const { execution } = run
      this.cliExecutions.set(sampleKey(block, sampleId), execution)
      return { status: execution.status, finalAnswer: execution.final_answer, error: summarizeFailure(execution), usage: execution.usage, costUsd: execution.cost_usd, model: execution.model, toolCalls: run.toolCalls }
    } finally {
      await rm(workspace, { recursive: true, force: true })
    }
  }

  private externalProgram(block: string, sampleId: string): readonly [string, ...string[]] {
    if (this.options.externalAgent === undefined) throw new Error(`the external agent of ${block}/${sampleId} has no program: set agent: {command: [...]}`)
    return this.options.externalAgent
  }

  /**
   * result.json `execution`: for a CLI agent what the CLI itself reported (exit code, parse errors, its own
   * error, warnings, stderr apart), held here rather than trusted from the page; otherwise the page's report.
   */
  private executionRecord(block: string, sampleId: string, reported: FinishSampleRequest['execution']): FinishSampleRequest['execution'] & Record<string, unknown> {
    const cli = this.cliExecutions.get(sampleKey(block, sampleId))
    this.cliExecutions.delete(sampleKey(block, sampleId))
    // Ctrl-C cut the agent short: whatever it reported, the sample was interrupted (as for the page's report).
    if (cli !== undefined) return { ...cli, status: this.interrupted && cli.status !== 'completed' ? 'interrupted' : cli.status }
    return { ...reported, exit_code: null, agent_error: reported.error, parse_errors: 0 }
  }

  /**
   * Ends the run: samples still open are recorded as failed (their page died with the run: a browser lost beyond
   * what the plugin recovers takes the whole Vitest run down), then the final status in run.json (`paused` with its
   * reason when the run stopped) with the run-level errors, and the scoring workers stop.
   */
  async close(status: 'completed' | 'failed', errors: readonly string[] = []): Promise<void> {
    // Taken before the open samples are closed below: the run's end is no stop rule's doing.
    const stopped = this.stopRules.reason
    const browserDied = errors.some(error => /Browser connection was closed|page (was )?closed|Target (page, context or browser )?(has been )?closed/i.test(error))
    const reason = browserDied
      ? 'a browser of the run closed while this sample ran (crashed or killed) and Vitest ended the run; continue with AWB_RESUME'
      : 'the run ended before the sample finished; continue with AWB_RESUME'
    for (const open of this.gate.openSamples()) await this.abandonSample(open.block, open.sampleId, reason)
    this.hungPages.close()
    this.gate.abortAll('the run has ended')
    for (const revoke of this.revokeInputs.values()) revoke()
    this.revokeInputs.clear()
    await this.scorer?.close()
    this.scorer = undefined
    if (this.run !== undefined) await (await this.run).finish(stopped === undefined ? status : 'paused', errors, stopped)
  }

  private planOf(block: string, sampleId: string): Promise<SamplePlan> | SamplePlan {
    // A sample being recorded now is waited for: its page may come back (a new page after a crash) meanwhile.
    if (this.ledger.isPending(block, sampleId)) return this.ledger.settled(block, sampleId).then(() => this.planOf(block, sampleId))
    const here = this.ledger.entry(block, sampleId)
    if (here !== undefined) {
      const { recordedBy: _, ...recorded } = here
      return { kind: 'recorded', ...recorded }
    }
    const reason = this.stopRules.reason
    if (reason !== undefined) return { kind: 'skip', reason }
    return this.resumed().then(async (plan) => {
      const recorded = plan?.recorded.get(sampleKey(block, sampleId))
      if (recorded === undefined) return { kind: 'run' as const }
      return recordedPlan(recorded, this.pkg, () => this.sampleScorer())
    })
  }

  private resumed(): Promise<ResumePlan | undefined> {
    const resume = this.options.resume
    this.resumePlan ??= resume === undefined ? Promise.resolve(undefined) : planResume({ resume, runsRoot: this.options.runsRoot, retryFailed: this.options.retryFailed === true, pkg: this.pkg })
    return this.resumePlan
  }

  private sampleScorer(): SampleScorer {
    return (this.scorer ??= createScorer(this.options.scoringWorkers === undefined ? {} : { workers: this.options.scoringWorkers }))
  }

  private async appendRecord(block: string, sampleId: string, entry: unknown): Promise<void> {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry) || typeof (entry as { type?: unknown }).type !== 'string') {
      throw new TypeError('a conversation record must be an object with a string "type"')
    }
    const text = JSON.stringify(entry)
    if (text.length > MAX_RECORD_CHARS) throw new RangeError(`a conversation record is larger than ${MAX_RECORD_CHARS} characters`)
    try {
      await (await this.runWriter()).appendConversation(block, sampleId, entry as { type: string } & Record<string, unknown>)
    } catch (error) {
      // Past the per-sample cap the log stays as it is and the sample ends here, failed with the cap's message: its
      // agent is stopped (the gate aborts its Node-side work) instead of filling the disk or crashing the run.
      if (error instanceof RunError && error.code === 'RUN_RECORD_CAP') await this.abandonSample(block, sampleId, error.message)
      throw error
    }
  }

  /** Keeps the page's picture of the final scene as final.png (a PNG, or nothing). */
  private async saveCapture(run: RunWriter, block: string, sampleId: string, base64: string): Promise<void> {
    if (base64.length > Math.ceil(MAX_CAPTURE_BYTES / 3) * 4) return
    const bytes = new Uint8Array(Buffer.from(base64, 'base64'))
    if (!PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return
    await run.saveSampleFile(block, sampleId, 'final.png', bytes)
  }

  private runWriter(): Promise<RunWriter> {
    this.run ??= this.resumed().then(plan => RunWriter.create({
      sourceRun: plan?.sourceRun ?? null,
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
}

/** What a sample's finish reports; the page's own report, or what Node knows of a sample whose page was lost. */
type FinishReport = Omit<FinishSampleRequest, 'toolCalls' | 'durationSeconds'> & { toolCalls: number | null; durationSeconds: number | null }

/**
 * The finish report of a sample whose page was lost after its final episode was saved: execution `interrupted` with
 * the reason, the archive as saved, the agent's time from start to save; its tool calls and page timings are unknown.
 */
function savedButLostReport(reason: string, status: LostStatus, saved: { at: number; sha256: string }, startedAt: string | undefined): FinishReport {
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
