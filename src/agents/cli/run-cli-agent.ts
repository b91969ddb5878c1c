// Node only: runs one Codex / Claude Code agent for a sample end to end — pages into the workspace, invocation,
// streamed events → privacy-filtered conversation records, execution fields, outcome, quota text (runner.md
// §4 steps 2–3 and 6–7, §4.5, §4.6). The MCP surface and the page are the caller's.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { bridgeCommand } from '../../mcp/index.ts'
import { type AgentOutcome, parseAgentOutcome } from '../agent-outcome.ts'
import type { ConversationEntry, ReferencePage } from '../agent.ts'
import { agentEnvironment, runAgentProcess } from './agent-process.ts'
import { buildClaudeInvocation, firstUserContent } from './claude-command.ts'
import { readClaudeEvent } from './claude-events.ts'
import { buildCodexInvocation } from './codex-command.ts'
import { readCodexEvent } from './codex-events.ts'
import type { CliInvocation, McpStdioServer, WorkspacePage } from './invocation.ts'
import { isQuotaExhausted } from './quota.ts'
import { type CliStreamState, emptyStreamState } from './stream-state.ts'

export const CLI_AGENT_KINDS = ['codex', 'claude'] as const
export type CliAgentKind = (typeof CLI_AGENT_KINDS)[number]

/** File extensions of reference pages in the workspace, by media type. */
const PAGE_EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' }

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
  /** The agent's environment before the §4.5 removals (default `process.env`); API keys go here. */
  env?: NodeJS.ProcessEnv | undefined
  /** The program to run instead of `codex` / `claude` (arguments are prepended); for tests and custom installs. */
  executable?: { command: string, args?: readonly string[] } | undefined
  /** Receives the first user message, then every filtered event record, in order (→ `conversation.jsonl`). */
  onRecord(entry: ConversationEntry): void | Promise<void>
}

/** `result.json` `execution` (runner.md §5.5), filled from the CLI's own reports. */
export interface CliExecution {
  status: 'completed' | 'failed' | 'timeout' | 'interrupted'
  final_answer: string | null
  usage: Record<string, unknown> | null
  /** Only when the CLI reports it; never estimated. */
  cost_usd: number | null
  exit_code: number | null
  model: string | null
  agent_error: string | null
  parse_errors: number
  /** Why the run did not complete (stderr tail, spawn failure), or null. */
  error: string | null
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
 * Throws only when the run cannot be set up (`CliAgentError` for bad overrides or page types, file errors).
 */
export async function runCliAgent(options: RunCliAgentOptions): Promise<CliAgentRun> {
  const pages = await copyPages(options.workspace, options.pages)
  const invocation = buildInvocation(options, pages)
  for (const file of invocation.files) await writeFile(file.path, file.content, { mode: 0o600 })
  await options.onRecord({ type: 'message', role: 'user', content: firstUserContent(options.prompt, pages) })
  const state = emptyStreamState()
  const read = options.kind === 'codex' ? readCodexEvent : readClaudeEvent
  const processResult = await runAgentProcess({
    command: options.executable?.command ?? invocation.command,
    args: [...(options.executable?.args ?? []), ...invocation.args],
    cwd: options.workspace,
    env: agentEnvironment(options.env ?? process.env),
    stdin: invocation.stdin,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onLine: async line => {
      for (const entry of readLine(line, state, read)) await options.onRecord(entry)
    },
  })
  const execution = executionOf(state, processResult, options.model)
  return { execution, outcome: parseAgentOutcome(execution.final_answer), isQuotaExhausted: isQuotaExhausted(JSON.stringify(execution)) }
}

function buildInvocation(options: RunCliAgentOptions, pages: WorkspacePage[]): CliInvocation {
  const mcp = 'url' in options.mcp ? bridgeCommand(options.mcp.url) : options.mcp
  const input = { model: options.model, effort: options.effort, prompt: options.prompt, pages, workspace: options.workspace, mcp }
  return options.kind === 'codex' ? buildCodexInvocation({ ...input, overrides: options.codexConfig }) : buildClaudeInvocation(input)
}

/** Writes the pages as `reference-0001.<ext>`, … (benchmark-package.md §13.3 item 2). */
async function copyPages(workspace: string, pages: readonly ReferencePage[]): Promise<WorkspacePage[]> {
  await mkdir(workspace, { recursive: true })
  const copied: WorkspacePage[] = []
  for (const [index, page] of pages.entries()) {
    const path = join(workspace, `reference-${String(index + 1).padStart(4, '0')}.${PAGE_EXTENSIONS[page.mimeType] ?? 'bin'}`)
    await writeFile(path, page.bytes, { mode: 0o600 })
    copied.push({ ...page, path })
  }
  return copied
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

/** `completed` iff exit 0, a non-empty final answer, no agent error and no parse error (runner.md §4.5). */
function executionOf(state: CliStreamState, result: Awaited<ReturnType<typeof runAgentProcess>>, requestedModel: string): CliExecution {
  const agentError = state.agentErrors.length === 0 ? null : state.agentErrors.join('\n')
  const isClean = result.exitCode === 0 && result.failure === null && (state.finalAnswer ?? '').trim() !== '' && agentError === null && state.parseErrors === 0
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
    error: status === 'completed' ? null : failureText(status, state, result),
  }
}

function failureText(status: CliExecution['status'], state: CliStreamState, result: Awaited<ReturnType<typeof runAgentProcess>>): string {
  const reasons: string[] = []
  if (status === 'timeout') reasons.push('TimeoutError: the agent exceeded the per-sample time limit and its process group was killed')
  if (status === 'interrupted') reasons.push('CancelledError: the run was cancelled and the agent process group was killed')
  if (result.failure !== null) reasons.push(result.failure)
  if (status === 'failed' && result.exitCode !== 0 && result.failure === null) reasons.push(`the agent exited with ${result.exitCode === null ? 'a signal' : `code ${result.exitCode}`}`)
  if (state.parseErrors > 0) reasons.push(`${state.parseErrors} output line${state.parseErrors === 1 ? ' was' : 's were'} not JSON`)
  if (status === 'failed' && result.exitCode === 0 && (state.finalAnswer ?? '').trim() === '') reasons.push('the agent gave no final answer')
  if (result.stderrTail.trim() !== '') reasons.push(`stderr: ${result.stderrTail.trim()}`)
  return reasons.join('; ')
}
