// scripts/timed-step.mjs, the time limit of a test leg's step (`npm test --step-limit`): a stuck step is stopped, and
// so is every process it started, including one it left behind as an orphan. Real processes: each step is a Node
// script whose child reports its PID over a Unix socket and holds the connection (the barriers: the test stops the step
// only once that child exists, and sees it die when the connection closes, so nothing depends on timing).
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTimedStep } from '../../../scripts/timed-step.mjs'

/**
 * A Node script that starts `node -e <spinner>` (detached: its own session, as Playwright starts browsers), then
 * behaves as `then` says. The spinner ignores SIGTERM, connects to the socket at argv[1], sends its PID and keeps the
 * connection: the test learns that it exists, and that it has died when the connection closes (no polling).
 */
function stepScript(then: 'ignore SIGTERM' | 'exit on SIGTERM'): string {
  const spinner = [
    "process.on('SIGTERM', () => {})",
    "const socket = require('node:net').connect(process.argv[1], () => socket.write(String(process.pid)))",
    'setInterval(() => {}, 1000)',
  ].join('\n')
  return [
    "const { spawn } = require('node:child_process')",
    then === 'ignore SIGTERM' ? "process.on('SIGTERM', () => {})" : "process.on('SIGTERM', () => process.exit(0))",
    `spawn(process.execPath, ['-e', ${JSON.stringify(spinner)}, process.argv[1]], { detached: true, stdio: 'ignore' }).unref()`,
    'setInterval(() => {}, 1000)',
  ].join('\n')
}

/** A spinner as the test sees it: its PID, and a promise that resolves when it has died (its connection closed). */
interface Spinner {
  pid: number
  died: Promise<void>
}

/** A spinner that is not killed fails its test this soon (it would never die on its own). */
const DEATH_TIMEOUT_MS = 15_000

/** Whether `pid` is a live process (a zombie, dead but not yet reaped, counts as gone). */
async function isAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
}

describe('a test leg\'s step with a time limit', () => {
  let dir = ''
  let server: Server
  let socketPath = ''
  /** Resolves the next spinner that connects. */
  let nextSpinner: () => Promise<Spinner>
  const spinners: number[] = []
  const sockets = new Set<Socket>()

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'awb-timed-step-'))
    socketPath = join(dir, 'pids.sock')
    const waiting: ((spinner: Spinner) => void)[] = []
    const arrived: Spinner[] = []
    server = createServer((socket) => {
      sockets.add(socket)
      const died = new Promise<void>(resolve => socket.on('close', () => resolve()))
      socket.once('data', (chunk: Buffer) => {
        const spinner = { pid: Number(chunk.toString()), died }
        spinners.push(spinner.pid)
        const waiter = waiting.shift()
        if (waiter !== undefined) waiter(spinner)
        else arrived.push(spinner)
      })
    })
    await new Promise<void>(resolve => server.listen(socketPath, resolve))
    nextSpinner = () => arrived.length > 0 ? Promise.resolve(arrived.shift()!) : new Promise(resolve => waiting.push(resolve))
  })

  afterAll(async () => {
    // After a failure: no spinner outlives the test, and no connection keeps the server open.
    for (const pid of spinners) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Gone, as it should be.
      }
    }
    for (const socket of sockets) socket.destroy()
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
    const spinner = await nextSpinner()
    expect(await isAlive(spinner.pid)).toBe(true)
    stop.abort()
    await expect(step).resolves.toEqual({ passed: false, stopped: true })
    await spinner.died
  }, DEATH_TIMEOUT_MS)

  it('a step that exits on SIGTERM fails all the same, and does not leave the process it started behind (an orphan by then)', async () => {
    const stop = new AbortController()
    const step = runTimedStep(process.execPath, ['-e', stepScript('exit on SIGTERM'), socketPath], { stop: stop.signal, graceMs: 60_000 })
    const spinner = await nextSpinner()
    stop.abort()
    // Resolves when the step exits (long before its grace): its orphan is killed then, not after the grace.
    await expect(step).resolves.toEqual({ passed: false, stopped: true })
    await spinner.died
  }, DEATH_TIMEOUT_MS)

  it('(control) the same step stopped by a plain SIGTERM leaves that process running', async () => {
    const step = spawn(process.execPath, ['-e', stepScript('exit on SIGTERM'), socketPath], { stdio: 'ignore' })
    const spinner = await nextSpinner()
    const exited = new Promise(resolve => step.on('close', resolve))
    step.kill('SIGTERM')
    await exited
    try {
      expect(await isAlive(spinner.pid)).toBe(true)
    } finally {
      process.kill(spinner.pid, 'SIGKILL')
      await spinner.died
    }
  })
})
