// Node side of a benchmark run: opens the package, writes the run directory, resolves agents, saves and scores
// final episodes. Serves the page through its methods; it never hands ground truth to the page.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliAgentOnRelay, summarizeFailure, type CliExecution } from '../../agents/cli/index.ts'
import { runExternalAgentOnRelay } from '../../agents/external/index.ts'
import { createPageRelay, type PageRelayOptions } from '../../mcp/index.ts'
import { composePrompt, type ConversationEntry } from '../../agents/index.ts'
import { isApiAgentName, MODEL_PROVIDERS, parseApiAgentName } from '../../agents/api/index.ts'
import { sha256Hex } from '../../episode/index.ts'
import { createScorer, errorFields, scoreFinalEpisode, type ErrorFields, type FinalEpisodeScore, type SampleScorer } from '../../evaluate/index.ts'
import { findSample, openPackage, readPage, type BenchmarkPackage, type PackageSample } from '../../package/index.ts'
import { RunWriter } from '../../runs/index.ts'
import { FinishSampleRequestSchema, type AgentSpec, type CliAgentResult, type FinishSampleRequest, type FinishSampleResponse, type StartSampleResponse } from '../protocol.ts'

export interface BenchmarkSessionOptions {
  benchmark: string
  runsRoot: string
  agent: string
  model: string | undefined
  demonstrations: string
  sampleTimeoutSeconds: number
  scoringWorkers: number | undefined
  /** Maps a sample to the same-origin URLs of its agent-visible inputs (the plugin's input route). */
  urls: { episode(block: string, slug: string): string; page(block: string, slug: string, page: number): string }
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
}

const API_PROVIDERS: readonly string[] = MODEL_PROVIDERS
const PAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' }

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

  private constructor(pkg: BenchmarkPackage, options: BenchmarkSessionOptions) {
    this.pkg = pkg
    this.options = options
  }

  static async open(options: BenchmarkSessionOptions): Promise<BenchmarkSession> {
    return new BenchmarkSession(await openPackage(options.benchmark), options)
  }

  /** The run directory, once a sample has started in this process. */
  async runDir(): Promise<string | undefined> {
    return this.run === undefined ? undefined : (await this.run).dir
  }

  /** Writes the sample's inputs (input.json, prompt.txt, a pending result) and tells the page what to load. */
  async startSample(block: string, sampleId: string): Promise<StartSampleResponse> {
    const sample = findSample(this.pkg, block, sampleId)
    const blockInfo = this.pkg.blocks.find(candidate => candidate.name === block)!
    const prompt = composePrompt(blockInfo.taskText)
    const run = await this.runWriter()
    ;(this.selection[block] ??= []).push(sampleId)
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
    this.started.set(key(block, sampleId), startedAt)
    return {
      prompt,
      episodeUrl: this.options.urls.episode(block, sample.slug),
      pages: sample.pages.map(page => ({ page: page.page, url: this.options.urls.page(block, sample.slug, page.page), mimeType: PAGE_TYPES[page.path.split('.').at(-1)?.toLowerCase() ?? ''] ?? 'application/octet-stream' })),
      timeoutMs: this.options.sampleTimeoutSeconds * 1000,
      agent: await this.agentFor(sample),
    }
  }

  async record(block: string, sampleId: string, entry: { type: string } & Record<string, unknown>): Promise<void> {
    await (await this.runWriter()).appendConversation(block, sampleId, entry)
  }

  /** Saves the exported final episode atomically; returns its SHA-256. */
  async saveFinal(block: string, sampleId: string, base64: string): Promise<string> {
    const bytes = new Uint8Array(Buffer.from(base64, 'base64'))
    await (await this.runWriter()).saveFinalEpisode(block, sampleId, bytes)
    return sha256Hex(bytes)
  }

  /**
   * Scores the saved final episode (any saved export is scored, whatever the agent did), writes result.json
   * and returns the official row. An unsaved export gives an error row (PA 0, SR 0, SCD null).
   */
  async finishSample(block: string, sampleId: string, request: unknown): Promise<FinishSampleResponse> {
    const report = FinishSampleRequestSchema.parse(request)
    const run = await this.runWriter()
    const sample = findSample(this.pkg, block, sampleId)
    const started = performance.now()
    const scorer = (this.scorer ??= createScorer(this.options.scoringWorkers === undefined ? {} : { workers: this.options.scoringWorkers }))
    let fields: FinalEpisodeScore | ErrorFields
    try {
      if (report.archive.status !== 'saved') throw new Error(`the final episode was not saved (${report.archive.error ?? report.archive.status})`)
      const finalPath = join(run.sampleDir(block, sampleId), 'final.episode.zip')
      const finalBytes = new Uint8Array(await readFile(finalPath))
      fields = await scoreFinalEpisode({ pkg: this.pkg, sample, finalBytes, finalSource: finalPath, scorer })
    } catch (error) {
      fields = errorFields(error)
    }
    const scoreMs = performance.now() - started
    const usage = report.execution.usage
    const row: FinishSampleResponse['row'] = {
      block,
      sample_id: sampleId,
      run: run.dir,
      duration_seconds: report.durationSeconds,
      usage,
      cost_usd: report.execution.cost_usd,
      tool_calls: report.toolCalls,
      attempt_finished: true,
      ...fields,
    }
    const completed = report.execution.status === 'completed' && report.archive.status === 'saved'
    await run.writeResult(block, sampleId, {
      status: completed ? 'completed' : 'failed',
      started_at: this.started.get(key(block, sampleId)) ?? null,
      finished_at: new Date().toISOString(),
      execution: this.executionRecord(block, sampleId, report.execution),
      archive: report.archive,
      agent_outcome: report.agentOutcome,
      cleanup_error: null,
      duration_seconds: report.durationSeconds,
      tool_calls: report.toolCalls,
      harness: { timings_ms: { ...report.timings, scoreMs }, scoring_backend: scorer.backend },
    })
    this.started.delete(key(block, sampleId))
    return { row, scoreMs, backend: scorer.backend, runDir: run.dir }
  }

  /**
   * Runs the sample's CLI agent (Codex CLI / Claude Code) in a private workspace against the page's tools,
   * reached through `frame` (the page must have exposed its registered tools with `exposeToolRelay`).
   */
  async runCliAgent(block: string, sampleId: string, frame: PageRelayOptions['target']): Promise<CliAgentResult> {
    const sample = findSample(this.pkg, block, sampleId)
    const spec = await this.agentFor(sample)
    if (spec.kind !== 'cli') throw new Error(`the configured agent of ${block}/${sampleId} is not a CLI agent`)
    const blockInfo = this.pkg.blocks.find(candidate => candidate.name === block)!
    // Page bytes are re-hashed on read; the CLI runner copies them into the workspace as reference-000N.<ext>.
    const referencePages = await Promise.all(sample.pages.map(async page => ({ page: page.page, mimeType: PAGE_TYPES[page.path.split('.').at(-1)?.toLowerCase() ?? ''] ?? 'application/octet-stream', bytes: await readPage(this.pkg, page) })))
    const workspace = await mkdtemp(join(tmpdir(), 'awb-agent-'))
    try {
      const relay = createPageRelay({ target: frame, page: { id: 1, url: `awb://${block}/${sample.slug}`, title: `${block} / ${sampleId}` }, referencePages })
      const common = {
        prompt: composePrompt(blockInfo.taskText),
        relay,
        workspace,
        timeoutMs: this.options.sampleTimeoutSeconds * 1000,
        onRecord: (entry: ConversationEntry) => this.record(block, sampleId, entry),
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
      this.cliExecutions.set(key(block, sampleId), execution)
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
    const cli = this.cliExecutions.get(key(block, sampleId))
    this.cliExecutions.delete(key(block, sampleId))
    if (cli !== undefined) return { ...cli }
    return { ...reported, exit_code: null, agent_error: reported.error, parse_errors: 0 }
  }

  /** Ends the run: final status in run.json, scoring workers stopped. */
  async close(status: 'completed' | 'failed'): Promise<void> {
    await this.scorer?.close()
    this.scorer = undefined
    if (this.run !== undefined) await (await this.run).finish(status)
  }

  private runWriter(): Promise<RunWriter> {
    this.run ??= RunWriter.create({
      runsRoot: this.options.runsRoot,
      selection: this.selection,
      tasks: Object.fromEntries(this.pkg.blocks.map(block => [block.name, block.taskText])),
      referenceModes: Object.fromEntries(this.pkg.blocks.map(block => [block.name, block.referenceMode])),
      options: this.options.recordedOptions,
      benchmark: { root: this.pkg.root, frozen: this.pkg.frozenRelease, revision: null },
    })
    return this.run
  }

  private async agentFor(sample: PackageSample): Promise<AgentSpec> {
    switch (this.options.agent) {
      case 'idle':
        return { kind: 'idle' }
      case 'external':
        if (this.options.externalAgent === undefined) return { kind: 'unavailable', reason: 'the external agent needs a program: set the plugin option agent: {command: [...]} or AWB_AGENT=\'{"command": [...]}\'' }
        return { kind: 'cli', cli: 'external', model: this.options.model ?? 'external' }
      case 'replay': {
        const source = join(this.options.demonstrations, sample.block, `${sample.slug}.calls.jsonl`)
        try {
          return { kind: 'replay', script: await readFile(source, 'utf8'), source }
        } catch {
          return { kind: 'unavailable', reason: `the replay agent has no demonstration for ${sample.block}/${sample.id}: ${source} is missing (set AWB_DEMONSTRATIONS to the folder of <block>/<slug>.calls.jsonl scripts)` }
        }
      }
      default:
        if (isApiAgentName(this.options.agent)) return { kind: 'api', spec: parseApiAgentName(this.options.agent) }
        if (this.options.agent === 'codex' || this.options.agent === 'claude') {
          if (this.options.model === undefined) return { kind: 'unavailable', reason: `the ${this.options.agent} agent needs a model: set AWB_MODEL (or the plugin's model option)` }
          return { kind: 'cli', cli: this.options.agent, model: this.options.model }
        }
        if (API_PROVIDERS.includes(this.options.agent) && this.options.model !== undefined) return { kind: 'api', spec: parseApiAgentName(`${this.options.agent}:${this.options.model}`) }
        return { kind: 'unavailable', reason: `unknown agent "${this.options.agent}"; use replay, idle, codex or claude (with AWB_MODEL), openai:<model> or anthropic:<model>` }
    }
  }
}

function key(block: string, sampleId: string): string {
  return `${block}\u0000${sampleId}`
}
