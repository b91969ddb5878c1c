// Starts a sample's agent: which agent it runs (the spec the page acts on, agent-spec.ts, page agents' realm code
// included) and, for CLI and external agents, their run in Node against the page's tools. The only module of the
// harness that runs agent processes; it writes nothing itself (records go to the caller's `onRecord`).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { composePrompt, type ConversationEntry } from '../../agents/index.ts'
import { runCliAgentOnRelay, summarizeFailure, type CliExecution } from '../../agents/cli/index.ts'
import { runExternalAgentOnRelay } from '../../agents/external/index.ts'
import { createPageRelay, type PageRelayOptions } from '../../mcp/index.ts'
import { findSample, sampleKey, type BenchmarkPackage, type PackageSample } from '../../package/index.ts'
import type { AgentSpec, CliAgentResult, FinishSampleRequest } from '../sample-messages.ts'
import { agentFor, agentKindOf, type AgentOptions } from './agent-spec.ts'
import { cliRelayView } from './cli-relay-view.ts'
import type { GatedAgentKind, OpenSample } from './sample-gate.ts'

export interface AgentLauncherOptions extends AgentOptions {
  sampleTimeoutSeconds: number
  /** A program to run instead of `codex` / `claude` (its arguments come first), e.g. a wrapper or a test double. */
  agentCommand?: { command: string; args: string[] } | undefined
  /** Reasoning effort for Codex / Claude Code, free text (undefined: the CLI's default). */
  effort?: string | undefined
  /** Codex `-c KEY=VALUE` overrides (provider and endpoint keys only). */
  codexConfig?: readonly string[] | undefined
}

/** result.json `execution` as Node records it: the page's report, or what a CLI agent itself reported. */
export type ExecutionRecord = FinishSampleRequest['execution'] & Record<string, unknown>

/** The agents of one run: every sample runs the agent of the run's `agent` setting. */
export class AgentLauncher {
  /** Where the run's agent runs, which decides the Node-side services its page may use. */
  readonly kind: GatedAgentKind
  private readonly pkg: BenchmarkPackage
  private readonly options: AgentLauncherOptions
  /** What each CLI agent reported, kept on the Node side until its result.json is written (the page gets a summary). */
  private readonly cliExecutions = new Map<string, CliExecution>()

  constructor(pkg: BenchmarkPackage, options: AgentLauncherOptions) {
    this.pkg = pkg
    this.options = options
    this.kind = agentKindOf(options.agent)
  }

  /** The agent `sample` runs, as the page gets it with the sample's start (or `unavailable` with the reason). */
  spec(sample: PackageSample): Promise<AgentSpec> {
    return agentFor(this.options, sample)
  }

  /**
   * Runs the sample's CLI agent (Codex CLI / Claude Code) or external program in a private workspace against the
   * page's tools, reached through `frame` (the page must have exposed its registered tools with `exposeToolRelay`).
   * It stops when `open`'s signal aborts; each conversation entry goes to `onRecord`.
   */
  async runCli(open: OpenSample, frame: PageRelayOptions['target'], onRecord: (entry: ConversationEntry) => Promise<void>): Promise<CliAgentResult> {
    const { block, sampleId } = open
    const sample = findSample(this.pkg, block, sampleId)
    const spec = await this.spec(sample)
    if (spec.kind !== 'cli') throw new Error(`the configured agent of ${block}/${sampleId} is not a CLI agent`)
    const blockInfo = this.pkg.blocks.find(candidate => candidate.name === block)!
    // The CLI runner copies the reference pages into the workspace as reference-000N.<ext>.
    const view = await cliRelayView(this.pkg, sample)
    const workspace = await mkdtemp(join(tmpdir(), 'awb-agent-'))
    try {
      const relay = createPageRelay({ target: frame, ...view })
      const common = {
        prompt: composePrompt(blockInfo.taskText),
        relay,
        workspace,
        timeoutMs: this.options.sampleTimeoutSeconds * 1000,
        signal: open.signal,
        sandbox: this.options.sandbox,
        onRecord,
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

  /**
   * result.json `execution`, handed over once: for a CLI agent what the CLI itself reported (exit code, parse errors,
   * its own error, warnings, stderr apart), held here rather than trusted from the page; otherwise the page's report.
   * `isInterrupted`: Ctrl-C cut the agent short, so whatever it reported, it was interrupted (as for the page's report).
   */
  executionRecord(block: string, sampleId: string, reported: FinishSampleRequest['execution'], isInterrupted: boolean): ExecutionRecord {
    const cli = this.cliExecutions.get(sampleKey(block, sampleId))
    this.cliExecutions.delete(sampleKey(block, sampleId))
    if (cli !== undefined) return { ...cli, status: isInterrupted && cli.status !== 'completed' ? 'interrupted' : cli.status }
    return { ...reported, exit_code: null, agent_error: reported.error, parse_errors: 0 }
  }

  private externalProgram(block: string, sampleId: string): readonly [string, ...string[]] {
    if (this.options.externalAgent === undefined) throw new Error(`the external agent of ${block}/${sampleId} has no program: set agent: {command: [...]}`)
    return this.options.externalAgent
  }
}
