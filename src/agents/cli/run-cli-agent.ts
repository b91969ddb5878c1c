// Node only: runs one Codex / Claude Code agent for a sample end to end — pages into the workspace, invocation,
// streamed events → privacy-filtered conversation records, execution fields, outcome, quota text (runner.md
// §4 steps 2–3 and 6–7, §4.5, §4.6). The MCP surface and the page are the caller's.
import { writeFile } from 'node:fs/promises'
import { bridgeCommand } from '../../mcp/index.ts'
import { type AgentOutcome, parseAgentOutcome } from '../agent-outcome.ts'
import type { ConversationEntry, ReferencePage } from '../agent.ts'
import { allowListedEnvironment, DEFAULT_SANDBOX, type SandboxSettings } from '../sandbox/index.ts'
import { agentEnvironment, type AgentProcessResult, runAgentProcess } from './agent-process.ts'
import { cliLaunch } from './cli-sandbox.ts'
import { cliSandboxAccess } from './credentials.ts'
import type { CliAgentKind } from './cli-agent-kind.ts'
import { buildClaudeInvocation, firstUserContent } from './claude-command.ts'
import { readClaudeEvent } from './claude-events.ts'
import { buildCodexInvocation } from './codex-command.ts'
import { readCodexEvent } from './codex-events.ts'
import { type CliInvocation, MCP_SERVER_NAME, type McpStdioServer, type WorkspacePage } from './invocation.ts'
import { isQuotaExhausted } from './quota.ts'
import { copyPages } from './workspace-pages.ts'
import { type CliStreamState, emptyStreamState } from './stream-state.ts'

export interface RunCliAgentOptions {
  kind: CliAgentKind
  /** Required; passed to the CLI. */
  model: string
  /** Free text passed to the CLI; omitted when undefined. */
  effort?: string | undefined
  /** Codex only: `--codex-config KEY=VALUE` entries (provider keys only; others throw `CliAgentError`). */
  codexConfig?: readonly string[] | undefined
  /** The composed prompt (task + protocol block), sent verbatim. */
  prompt: string
  /** Reference pages in page order; copied into the workspace as `reference-0001.<ext>`, …. */
  pages: readonly ReferencePage[]
  /** The sample's MCP endpoint (`startMcpHttpServer(…).url`: bridged over stdio) or a stdio command. */
  mcp: { url: string } | McpStdioServer
  /** A private, existing directory: the CLI's working directory. */
  workspace: string
  /** Per-sample agent limit in milliseconds (default: none). */
  timeoutMs?: number | undefined
  /** Cancels the run (operator interruption). */
  signal?: AbortSignal | undefined
  /**
   * Where the agent's environment is taken from (default `process.env`): only the allow-listed variables pass (the
   * defaults, the CLI's credentials and configuration family, `sandbox.passEnv`), then the §4.5 removals.
   */
  env?: NodeJS.ProcessEnv | undefined
  /** How the CLI is contained (default `DEFAULT_SANDBOX`: bubblewrap, fail closed). */
  sandbox?: SandboxSettings | undefined
  /** The program to run instead of `codex` / `claude` (arguments are prepended); for tests and custom installs. */
  executable?: { command: string, args?: readonly string[] } | undefined
  /**
   * How far the agent got with the MCP server, read when the CLI has exited (`runCliAgentOnRelay` passes the
   * surface's counters). A run with no listing and no call never reached the server: an infrastructure failure,
   * whatever the CLI answered. Undefined: not checked.
   */
  mcpActivity?: (() => McpActivity) | undefined
  /** Receives the first user message, then every filtered event record, in order (→ `conversation.jsonl`). */
  onRecord(entry: ConversationEntry): void | Promise<void>
}

/** Requests the sample's MCP surface served: `tools/list` answers and tool calls. */
export interface McpActivity {
  listings: number
  calls: number
}

/** `result.json` `execution` (runner.md §5.5), filled from the CLI's own reports. */
export interface CliExecution {
  status: 'completed' | 'failed' | 'timeout' | 'interrupted'
  final_answer: string | null
  usage: Record<string, unknown> | null
  /** Only when the CLI reports it; never estimated. */
  cost_usd: number | null
  /** The CLI's exit code; null when it was killed by a signal or never started. */
  exit_code: number | null
  model: string | null
  /** The CLI's own error reports (`error` / `turn.failed` events, an `is_error` result), or null. */
  agent_error: string | null
  /** Stdout lines that were not JSON objects. */
  parse_errors: number
  /** Why the run did not complete, in the harness's words (timeout, exit code, MCP server never reached, …), or null. */
  error: string | null
  /** The infrastructure reason when the run failed for the harness's part (MCP server not connected or never reached), else null. */
  infrastructure_error: string | null
  /** Notices the CLI reported that failed nothing (Codex reconnects), in order. */
  warnings: string[]
  /** The last `STDERR_TAIL_BYTES` of the CLI's stderr, kept apart from the errors. */
  stderr: string
}

export interface CliAgentRun {
  execution: CliExecution
  /** The first JSON object of the final answer with status completed / partial / unable, else null. */
  outcome: AgentOutcome | null
  /** The serialised execution matches the quota patterns (runner.md §6 rule 3): stop dispatching. */
  isQuotaExhausted: boolean
}

/**
 * Runs the CLI to the end (or the limit) and never throws for agent failures: they come back in `execution`.
 * Throws only when the run cannot be set up (`CliAgentError` for bad overrides or page types, `SandboxError` when
 * the sandbox cannot start, file errors).
 */
export async function runCliAgent(options: RunCliAgentOptions): Promise<CliAgentRun> {
  const pages = await copyPages(options.workspace, options.pages)
  const mcp = 'url' in options.mcp ? bridgeCommand(options.mcp.url) : options.mcp
  const invocation = buildInvocation(options, pages, mcp)
  for (const file of invocation.files) await writeFile(file.path, file.content, { mode: 0o600 })
  const baseEnv = options.env ?? process.env
  const sandbox = options.sandbox ?? DEFAULT_SANDBOX
  const access = cliSandboxAccess(options.kind, baseEnv, options.codexConfig)
  const allowed = allowListedEnvironment(baseEnv, { names: [...access.variables, ...sandbox.passEnv], prefixes: access.prefixes })
  const launch = await cliLaunch({
    settings: sandbox,
    workspace: options.workspace,
    command: options.executable?.command ?? invocation.command,
    args: [...(options.executable?.args ?? []), ...invocation.args],
    fileArgs: options.executable?.args?.length ?? 0,
    env: { ...agentEnvironment(allowed), ...codexKeyEnvironment(options.kind, baseEnv), ...invocation.env },
    mcp,
    access,
  })
  await options.onRecord({ type: 'message', role: 'user', content: firstUserContent(options.prompt, pages) })
  const state = emptyStreamState()
  const read = options.kind === 'codex' ? readCodexEvent : readClaudeEvent
  const processResult = await runAgentProcess({
    command: launch.command,
    args: launch.args,
    cwd: launch.cwd,
    env: launch.env,
    stdin: invocation.stdin,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onLine: async line => {
      for (const entry of readLine(line, state, read)) await options.onRecord(entry)
    },
  })
  const execution = executionOf(state, processResult, options.model, options.mcpActivity?.())
  return { execution, outcome: parseAgentOutcome(execution.final_answer), isQuotaExhausted: isQuotaExhausted(JSON.stringify(execution)) }
}

function buildInvocation(options: RunCliAgentOptions, pages: WorkspacePage[], mcp: McpStdioServer): CliInvocation {
  const input = { model: options.model, effort: options.effort, prompt: options.prompt, pages, workspace: options.workspace, mcp }
  if (options.kind === 'claude') return buildClaudeInvocation(input)
  // Codex ignores OPENAI_BASE_URL; users expect it to work as for every other OpenAI client, so it is passed on.
  const baseUrl = nonEmpty((options.env ?? process.env).OPENAI_BASE_URL)
  return buildCodexInvocation({ ...input, overrides: options.codexConfig, baseUrl })
}

/** Codex `exec` reads its key from CODEX_API_KEY; an exported OPENAI_API_KEY is offered there when it is unset. */
function codexKeyEnvironment(kind: CliAgentKind, env: NodeJS.ProcessEnv): Record<string, string> {
  const key = nonEmpty(env.OPENAI_API_KEY)
  return kind === 'codex' && nonEmpty(env.CODEX_API_KEY) === undefined && key !== undefined ? { CODEX_API_KEY: key } : {}
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value
}

/** One stdout line → records; a line that is not a JSON object is a `parse_error` (and fails the run). */
function readLine(line: string, state: CliStreamState, read: (event: Record<string, unknown>, state: CliStreamState) => ConversationEntry[]): ConversationEntry[] {
  if (line.trim() === '') return []
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    value = undefined
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    state.parseErrors++
    return [{ type: 'parse_error', text: line }]
  }
  return read(value as Record<string, unknown>, state)
}

/**
 * `completed` iff exit 0, a non-empty final answer, no agent error, no parse error (runner.md §4.5) and no
 * infrastructure failure: the CLI had its MCP server connected at start (when it reports that) and reached it.
 */
function executionOf(state: CliStreamState, result: AgentProcessResult, requestedModel: string, activity: McpActivity | undefined): CliExecution {
  const agentError = state.agentErrors.length === 0 ? null : state.agentErrors.join('\n')
  const infrastructureError = infrastructureFailure(state, activity)
  const isClean = result.exitCode === 0 && result.failure === null && (state.finalAnswer ?? '').trim() !== '' && agentError === null && state.parseErrors === 0 && infrastructureError === null
  const status = result.isCancelled ? 'interrupted' : result.isTimedOut ? 'timeout' : isClean ? 'completed' : 'failed'
  return {
    status,
    final_answer: state.finalAnswer,
    usage: state.usage,
    cost_usd: state.costUsd,
    exit_code: result.exitCode,
    model: state.model ?? requestedModel,
    agent_error: agentError,
    parse_errors: state.parseErrors,
    error: status === 'completed' ? null : failureText(status, state, result, infrastructureError),
    infrastructure_error: infrastructureError,
    warnings: [...state.warnings],
    stderr: result.stderrTail,
  }
}

/** Why the harness's part failed: the MCP server not connected at the CLI's start, or never reached at all. */
function infrastructureFailure(state: CliStreamState, activity: McpActivity | undefined): string | null {
  const server = state.mcpServers?.find(candidate => candidate.name === MCP_SERVER_NAME)
  if (state.mcpServers !== null && server?.status !== 'connected') {
    return `the ${MCP_SERVER_NAME} MCP server was ${server === undefined ? 'missing' : `"${server.status}"`} when the CLI started, so the model was offered none of its tools (Claude Code needs MCP_CONNECTION_NONBLOCKING=false; check the server's start-up and MCP_CONNECT_TIMEOUT_MS)`
  }
  if (activity !== undefined && activity.calls === 0 && activity.listings === 0) {
    return `the agent ended with zero tool calls and never reached the ${MCP_SERVER_NAME} MCP server (no tools/list, no call); the CLI did not connect it`
  }
  return null
}

function failureText(status: CliExecution['status'], state: CliStreamState, result: AgentProcessResult, infrastructureError: string | null): string {
  const reasons: string[] = []
  if (status === 'timeout') reasons.push('TimeoutError: the agent exceeded the per-sample time limit and its process group was killed')
  if (status === 'interrupted') reasons.push('CancelledError: the run was cancelled and the agent process group was killed')
  if (infrastructureError !== null) reasons.push(`InfrastructureError: ${infrastructureError}`)
  if (result.failure !== null) reasons.push(result.failure)
  if (status === 'failed' && result.exitCode !== 0 && result.failure === null) reasons.push(`the agent exited with ${result.exitCode === null ? 'a signal' : `code ${result.exitCode}`}`)
  if (state.agentErrors.length > 0) reasons.push(`the agent reported: ${state.agentErrors.join('; ')}`)
  if (state.parseErrors > 0) reasons.push(`${state.parseErrors} output line${state.parseErrors === 1 ? ' was' : 's were'} not JSON`)
  if (status === 'failed' && result.exitCode === 0 && (state.finalAnswer ?? '').trim() === '') reasons.push('the agent gave no final answer')
  // The stderr tail stays in its own field; only a run with no other explanation points at it.
  if (reasons.length === 0 && result.stderrTail.trim() !== '') reasons.push('see stderr')
  return reasons.join('; ')
}

/** How much of stderr a one-line failure summary quotes, in characters. */
const SUMMARY_STDERR_CHARS = 600

/**
 * One line for a test report: the failure reason plus the end of stderr (where a crashing CLI says why). The
 * execution record keeps both apart; this is only for people. Null when the run completed.
 */
export function summarizeFailure(execution: Pick<CliExecution, 'status' | 'error' | 'agent_error' | 'stderr'>): string | null {
  if (execution.status === 'completed') return null
  const reason = execution.error ?? execution.agent_error ?? execution.status
  const tail = execution.stderr.trim().slice(-SUMMARY_STDERR_CHARS).replace(/\s*\n\s*/g, ' / ')
  return tail === '' ? reason : `${reason} (stderr: ${tail})`
}
