// The agent process runner: stdout lines in order (CRLF, no final newline), stderr tail, exit codes, spawn
// failures, environment clean-up, and the group kill on timeout.
import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { agentEnvironment, runAgentProcess, STDERR_TAIL_BYTES } from '../../../../src/agents/cli/index.ts'

function runNode(script: string, options: { timeoutMs?: number, stdin?: string } = {}) {
  const lines: string[] = []
  return runAgentProcess({
    command: process.execPath,
    args: ['-e', script],
    cwd: process.cwd(),
    env: process.env,
    stdin: options.stdin ?? '',
    timeoutMs: options.timeoutMs,
    onLine: line => { lines.push(line) },
  }).then(result => ({ result, lines }))
}

describe('runAgentProcess', () => {
  it('streams stdout lines in order, strips CR, keeps a last line without newline, reads stdin', async () => {
    const { result, lines } = await runNode(`let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{process.stdout.write('a\\r\\nb\\n'+s.toUpperCase())})`, { stdin: 'tail' })
    expect(lines).toEqual(['a', 'b', 'TAIL'])
    expect(result).toMatchObject({ exitCode: 0, isTimedOut: false, isCancelled: false, failure: null })
  })

  it('keeps only the last 8 KiB of stderr and reports the exit code', async () => {
    const { result } = await runNode(`process.stderr.write('x'.repeat(20000)+'END');process.exit(7)`)
    expect(result.exitCode).toBe(7)
    expect(Buffer.byteLength(result.stderrTail)).toBe(STDERR_TAIL_BYTES)
    expect(result.stderrTail.endsWith('END')).toBe(true)
  })

  it('a program that does not exist is a failure, not a throw', async () => {
    const result = await runAgentProcess({ command: '/nonexistent/codex', args: [], cwd: process.cwd(), env: process.env, stdin: '', onLine: () => undefined })
    expect(result.exitCode).toBeNull()
    expect(result.failure).toContain('ENOENT')
  })

  it('on timeout kills the group, grandchildren included', async () => {
    const script = `const c=require('child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});console.log(c.pid);setInterval(()=>{},1000)`
    const { result, lines } = await runNode(script, { timeoutMs: 800 })
    expect(result.isTimedOut).toBe(true)
    const grandchild = Number(lines[0])
    expect(Number.isInteger(grandchild)).toBe(true)
    // Orphans are reaped by init; until then a killed one is a zombie (state Z), which is dead too.
    await vi.waitFor(() => expect(isRunning(grandchild)).toBe(false))
  })
})

describe('agentEnvironment', () => {
  it('removes parent agent-session variables and turns auto memory off', () => {
    const env = agentEnvironment({ PATH: '/bin', CODEX_THREAD_ID: 'a', CODEX_THREAD_X: 'b', CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', ANTHROPIC_API_KEY: 'k' })
    expect(env).toEqual({ PATH: '/bin', ANTHROPIC_API_KEY: 'k', CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' })
  })
})

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
