// scripts/timed-step.mjs, the time limit of a test leg's step (`npm test --step-limit`): a stuck step is stopped, and
// so is every process it started, including one it left behind as an orphan. Real processes: each step is a Node
// script that reports the PID of the process it started over a Unix socket (the barrier: the test stops the step only
// once that process exists, so nothing depends on timing).
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTimedStep } from '../../../scripts/timed-step.mjs'

/** A Node script that starts `node -e <spinner>` (detached: its own session, as Playwright starts browsers), sends its PID to the socket at argv[1], then behaves as `then` says. */
function stepScript(then: 'ignore SIGTERM' | 'exit on SIGTERM'): string {
  const spinner = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"
  return [
    "const { spawn } = require('node:child_process')",
    "const { connect } = require('node:net')",
    then === 'ignore SIGTERM' ? "process.on('SIGTERM', () => {})" : "process.on('SIGTERM', () => process.exit(0))",
    `const spinner = spawn(process.execPath, ['-e', ${JSON.stringify(spinner)}], { detached: true, stdio: 'ignore' })`,
    'spinner.unref()',
    'const socket = connect(process.argv[1], () => socket.end(String(spinner.pid)))',
    'setInterval(() => {}, 1000)',
  ].join('\n')
}

/** Whether `pid` is a live process (a zombie, dead but not yet reaped, counts as gone). */
async function isAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
}

describe('a test leg\'s step with a time limit', () => {
  let dir = ''
  let server: Server
  let socketPath = ''
  /** Resolves the next PID a step sends. */
  let nextPid: () => Promise<number>

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'awb-timed-step-'))
    socketPath = join(dir, 'pids.sock')
    const waiting: ((pid: number) => void)[] = []
    const arrived: number[] = []
    server = createServer((socket) => {
      let text = ''
      socket.on('data', (chunk: Buffer) => { text += chunk.toString() })
      socket.on('end', () => {
        const pid = Number(text)
        const waiter = waiting.shift()
        if (waiter !== undefined) waiter(pid)
        else arrived.push(pid)
      })
    })
    await new Promise<void>(resolve => server.listen(socketPath, resolve))
    nextPid = () => arrived.length > 0 ? Promise.resolve(arrived.shift()!) : new Promise(resolve => waiting.push(resolve))
  })

  afterAll(async () => {
    await new Promise(resolve => server.close(resolve))
    await rm(dir, { recursive: true, force: true })
  })

  it('a step that ends by itself passes on exit code 0 only, and is not stopped', async () => {
    const never = new AbortController().signal
    await expect(runTimedStep(process.execPath, ['-e', 'process.exit(0)'], { stop: never })).resolves.toEqual({ passed: true, stopped: false })
    await expect(runTimedStep(process.execPath, ['-e', 'process.exit(3)'], { stop: never })).resolves.toEqual({ passed: false, stopped: false })
  })

  it('a step that ignores SIGTERM is killed after its grace, with the process it started', async () => {
    const stop = new AbortController()
    const step = runTimedStep(process.execPath, ['-e', stepScript('ignore SIGTERM'), socketPath], { stop: stop.signal, graceMs: 300 })
    const spinner = await nextPid()
    expect(await isAlive(spinner)).toBe(true)
    stop.abort()
    await expect(step).resolves.toEqual({ passed: false, stopped: true })
    expect(await isAlive(spinner)).toBe(false)
  })

  it('a step that exits on SIGTERM fails all the same, and does not leave the process it started behind (an orphan by then)', async () => {
    const stop = new AbortController()
    const step = runTimedStep(process.execPath, ['-e', stepScript('exit on SIGTERM'), socketPath], { stop: stop.signal, graceMs: 60_000 })
    const spinner = await nextPid()
    stop.abort()
    // Resolves when the step exits (long before its grace): its orphan is killed then, not after the grace.
    await expect(step).resolves.toEqual({ passed: false, stopped: true })
    expect(await isAlive(spinner)).toBe(false)
  })

  it('(control) the same step stopped by a plain SIGTERM leaves that process running', async () => {
    const step = spawn(process.execPath, ['-e', stepScript('exit on SIGTERM'), socketPath], { stdio: 'ignore' })
    const spinner = await nextPid()
    const exited = new Promise(resolve => step.on('close', resolve))
    step.kill('SIGTERM')
    await exited
    try {
      expect(await isAlive(spinner)).toBe(true)
    } finally {
      process.kill(spinner, 'SIGKILL')
    }
  })
})
