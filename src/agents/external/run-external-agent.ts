// Node only: runs a bring-your-own agent program (any language) for one sample — in its workspace, inside the agent
// sandbox, with the environment allow-list plus the prompt file, the reference pages and the sample's MCP endpoint;
// its stdout, stderr and exit recorded; the time limit and the process-group kill of the CLI agents. The MCP surface
// and the page are the caller's.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type AgentOutcome, parseAgentOutcome } from '../agent-outcome.ts'
import type { ConversationEntry, ReferencePage } from '../agent.ts'
import { agentEnvironment, copyPages, type CliExecution, type McpActivity, runAgentProcess } from '../cli/index.ts'
import { allowListedEnvironment, containedLaunch, DEFAULT_SANDBOX, type SandboxSettings } from '../sandbox/index.ts'

/** The environment variables an external agent receives (documented in docs/agents.md, "A program in any language"). */
export const EXTERNAL_AGENT_VARIABLES = {
  /** The sample's MCP endpoint: Streamable HTTP on 127.0.0.1; the unguessable path is its token. */
  mcpUrl: 'AWB_MCP_URL',
  /** `prompt.txt` in the workspace: the task text and the protocol block, as the CLIs receive it. */
  promptFile: 'AWB_PROMPT_FILE',
  /** JSON array of the reference page files in page order (`[]` for blocks without pages). */
  pages: 'AWB_PAGES',
  /** The sample's private workspace (prompt file and pages), removed afterwards. */
  workspace: 'AWB_WORKSPACE',
  block: 'AWB_BLOCK',
  sampleId: 'AWB_SAMPLE_ID',
  /** The configured model name (AWB_MODEL), when there is one. */
  model: 'AWB_MODEL',
  /** Seconds the agent has before its process group is killed. */
  timeoutSeconds: 'AWB_TIMEOUT_SECONDS',
} as const

export interface RunExternalAgentOptions {
  /** The program and its arguments, e.g. `['python3', 'agent.py']`. */
  command: readonly [string, ...string[]]
  /**
   * Where relative paths in `command` resolve (default: the workspace). The harness passes the directory Vitest runs
   * in, so a project's own `command` works as written; the program itself always runs in the workspace.
   */
  cwd?: string | undefined
  prompt: string
  pages: readonly ReferencePage[]
  /** The sample's Streamable HTTP endpoint (`startMcpHttpServer(…).url`). */
  mcpUrl: string
  /** A private, existing directory: the program's working directory. */
  workspace: string
  sample: { block: string, sampleId: string }
  model?: string | undefined
  timeoutMs?: number | undefined
  signal?: AbortSignal | undefined
  /**
   * Where the program's environment is taken from (default `process.env`): only the default allow-list and the names in
   * `sandbox.passEnv` pass, then the AWB_* variables above are set.
   */
  env?: NodeJS.ProcessEnv | undefined
  /** How the program is contained (default `DEFAULT_SANDBOX`: bubblewrap, fail closed). */
  sandbox?: SandboxSettings | undefined
  /** Read when the program has exited: a run that never listed or called a tool is an infrastructure failure. */
  mcpActivity?: (() => McpActivity) | undefined
  /** Receives the first user message, each stdout line (`event` records), then the final answer. */
  onRecord(entry: ConversationEntry): void | Promise<void>
}

export interface ExternalAgentRun {
  /** result.json `execution`, in the CLI agents' shape (`agent_error` stays null: the program has no event stream). */
  execution: CliExecution
  outcome: AgentOutcome | null
}

/**
 * Runs the program to its end (or the limit); never throws for the program's failures. Its answer is its stdout:
 * `completed` iff it exits 0 with non-empty stdout after reaching the MCP endpoint. Throws `SandboxError` when the
 * sandbox is on and cannot start: the program never runs.
 */
export async function runExternalAgent(options: RunExternalAgentOptions): Promise<ExternalAgentRun> {
  const pages = await copyPages(options.workspace, options.pages)
  const promptFile = join(options.workspace, 'prompt.txt')
  await writeFile(promptFile, options.prompt, { mode: 0o600 })
  const sandbox = options.sandbox ?? DEFAULT_SANDBOX
  const names = EXTERNAL_AGENT_VARIABLES
  const env: NodeJS.ProcessEnv = {
    ...agentEnvironment(allowListedEnvironment(options.env ?? process.env, { names: sandbox.passEnv })),
    [names.mcpUrl]: options.mcpUrl,
    [names.promptFile]: promptFile,
    [names.pages]: JSON.stringify(pages.map(page => page.path)),
    [names.workspace]: options.workspace,
    [names.block]: options.sample.block,
    [names.sampleId]: options.sample.sampleId,
    ...(options.model === undefined ? {} : { [names.model]: options.model }),
    ...(options.timeoutMs === undefined ? {} : { [names.timeoutSeconds]: String(Math.floor(options.timeoutMs / 1000)) }),
  }
  const [command, ...args] = options.command
  const launch = await containedLaunch({ settings: sandbox, workspace: options.workspace, command, args, fileArgs: args.length, baseDir: options.cwd ?? options.workspace, env })
  await options.onRecord({ type: 'message', role: 'user', content: options.pages.length === 0 ? options.prompt : [{ type: 'text', text: options.prompt }, ...pages.map(page => ({ type: 'image', page: page.page, mimeType: page.mimeType, file: page.path }))] })
  const stdout: string[] = []
  const result = await runAgentProcess({
    command: launch.command,
    args: launch.args,
    cwd: launch.cwd,
    env: launch.env,
    stdin: options.prompt,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onLine: async line => {
      stdout.push(line)
      await options.onRecord({ type: 'event', event: { type: 'stdout', text: line } })
    },
  })
  const answer = stdout.join('\n').trim()
  const finalAnswer = answer === '' ? null : answer
  if (finalAnswer !== null) await options.onRecord({ type: 'message', role: 'assistant', content: finalAnswer })
  const activity = options.mcpActivity?.()
  const infrastructureError = activity !== undefined && activity.calls === 0 && activity.listings === 0
    ? 'the agent program never reached its MCP endpoint (no tools/list, no call): check that it reads AWB_MCP_URL'
    : null
  const isClean = result.exitCode === 0 && result.failure === null && finalAnswer !== null && infrastructureError === null
  const status = result.isCancelled ? 'interrupted' : result.isTimedOut ? 'timeout' : isClean ? 'completed' : 'failed'
  const reasons: string[] = []
  if (status === 'timeout') reasons.push('TimeoutError: the agent program exceeded the per-sample time limit and its process group was killed')
  if (status === 'interrupted') reasons.push('CancelledError: the run was cancelled and the agent program\'s process group was killed')
  if (infrastructureError !== null) reasons.push(`InfrastructureError: ${infrastructureError}`)
  if (result.failure !== null) reasons.push(result.failure)
  if (status === 'failed' && result.exitCode !== 0 && result.failure === null) reasons.push(`the agent program exited with ${result.exitCode === null ? 'a signal' : `code ${result.exitCode}`}`)
  if (status === 'failed' && result.exitCode === 0 && finalAnswer === null) reasons.push('the agent program printed no final answer on stdout')
  const execution: CliExecution = {
    status,
    final_answer: finalAnswer,
    usage: null,
    cost_usd: null,
    exit_code: result.exitCode,
    model: options.model ?? null,
    agent_error: null,
    parse_errors: 0,
    error: status === 'completed' ? null : reasons.join('; ') || 'see stderr',
    infrastructure_error: infrastructureError,
    warnings: [],
    stderr: result.stderrTail,
  }
  return { execution, outcome: parseAgentOutcome(finalAnswer) }
}
