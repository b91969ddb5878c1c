// Node only: runs a CLI agent as its own process group, streams stdout lines, keeps the stderr tail, and kills
// the whole group on timeout or cancel (runner.md §4.5 process environment, §4.8); no event parsing here.
import { spawn } from 'node:child_process'

/** Longest stdout line accepted (a Claude tool result with images can be large), in bytes. */
export const STDOUT_LINE_LIMIT_BYTES = 128 * 1024 * 1024
/** How much of stderr is kept for error reports, in bytes. */
export const STDERR_TAIL_BYTES = 8 * 1024
/** Grace between SIGTERM and SIGKILL of the process group, in milliseconds. */
export const KILL_GRACE_MS = 5_000

export interface AgentProcessOptions {
  command: string
  args: readonly string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** Written to stdin, which is then closed. */
  stdin: string
  /** Kill the group after this many milliseconds (default: no limit). */
  timeoutMs?: number | undefined
  /** Kill the group when aborted. */
  signal?: AbortSignal | undefined
  /** Each complete stdout line (without the newline), in order; awaited before the next line. */
  onLine(line: string): void | Promise<void>
}

export interface AgentProcessResult {
  /** Exit code, or null when killed by a signal or never started. */
  exitCode: number | null
  /** The last `STDERR_TAIL_BYTES` of stderr (UTF-8, possibly cut mid-character at the start). */
  stderrTail: string
  isTimedOut: boolean
  isCancelled: boolean
  /** Why the process could not run or its output was refused (spawn failure, an over-long line). */
  failure: string | null
}

/** The agent's environment: `base` without the variables of a parent Codex / Claude Code session, auto-memory off. */
export function agentEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(base)) {
    if (key.startsWith('CODEX_THREAD') || key === 'CLAUDECODE' || key === 'CLAUDE_CODE_ENTRYPOINT') continue
    env[key] = value
  }
  env.CLAUDE_CODE_DISABLE_AUTO_MEMORY = '1'
  return env
}

/** Spawns the agent and resolves when it has exited and every stdout line has been handled. */
export function runAgentProcess(options: AgentProcessOptions): Promise<AgentProcessResult> {
  return new Promise(resolve => {
    let stderr = Buffer.alloc(0)
    let pending = ''
    let pendingBytes = 0
    let lines: Promise<void> = Promise.resolve()
    let isTimedOut = false
    let isCancelled = false
    let failure: string | null = null
    let killTimer: ReturnType<typeof setTimeout> | undefined
    const child = spawn(options.command, [...options.args], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })

    const killGroup = (): void => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
      signalGroup(child.pid, 'SIGTERM')
      killTimer ??= setTimeout(() => {
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL')
      }, KILL_GRACE_MS)
    }
    const limitTimer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
      isTimedOut = true
      killGroup()
    }, options.timeoutMs)
    const onAbort = (): void => {
      isCancelled = true
      killGroup()
    }
    if (options.signal?.aborted === true) onAbort()
    else options.signal?.addEventListener('abort', onAbort, { once: true })

    const queueLine = (line: string): void => {
      lines = lines.then(() => options.onLine(line)).catch((error: unknown) => {
        failure ??= `handling an output line failed: ${error instanceof Error ? error.message : String(error)}`
      })
    }
    let isSettled = false
    const settle = (code: number | null): void => {
      if (isSettled) return
      isSettled = true
      clearTimeout(limitTimer)
      clearTimeout(killTimer)
      options.signal?.removeEventListener('abort', onAbort)
      // Children the agent spawned (its MCP relay) share the group; make sure none outlive it.
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL')
      if (pending !== '') queueLine(pending)
      void lines.then(() => resolve({ exitCode: code, stderrTail: stderr.toString('utf8'), isTimedOut, isCancelled, failure }))
    }
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      const parts = (pending + chunk).split('\n')
      pending = parts.pop() ?? ''
      pendingBytes = Buffer.byteLength(pending)
      for (const line of parts) queueLine(line.endsWith('\r') ? line.slice(0, -1) : line)
      if (pendingBytes > STDOUT_LINE_LIMIT_BYTES) {
        failure = `an output line exceeded ${STDOUT_LINE_LIMIT_BYTES} bytes`
        pending = ''
        killGroup()
      }
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk])
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES)
    })
    child.stdin.on('error', () => {
      // The agent may exit before reading all of stdin (a crash); its exit status reports that.
    })
    child.stdin.end(options.stdin)
    child.on('error', error => {
      failure = `${error.name}: ${error.message}`
      // A program that never started emits no 'close' on every Node version.
      if (child.pid === undefined) settle(null)
    })
    child.on('close', code => settle(code))
  })
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: the group is already gone, which is the goal.
  }
}
