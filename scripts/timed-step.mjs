// One step of a test leg (the type-check, a leg's suite) with a time limit, for scripts/test-legs.mjs. A step that is
// still running at the limit is stuck (a browser test whose page froze never times out: Vitest's test timeouts run in
// the page), so it is stopped, and with it every process it started: a frozen page's Chromium or a child `vitest run`
// that outlived the step would keep a CI machine busy after the summary was printed.

import { execFileSync, spawn } from 'node:child_process'

/**
 * Runs `command` (stdio: inherited, or `log`, a file descriptor, for stdout and stderr) and resolves
 * `{ passed, stopped }`: passed when it exited 0 and was not stopped; stopped when `stop` (e.g.
 * `AbortSignal.timeout(ms)`) fired while it ran. A stopped step gets SIGTERM (Vitest then closes its browsers and child
 * runs itself); `graceMs` later, or as soon as the step has exited, the step and every process it started that is
 * still alive are killed: every descendant seen from the stop on (the process table is read at the stop, every
 * SURVEY_MS during the grace and at the end), so a process orphaned during the grace is killed too, unless it was both
 * started and orphaned between two reads.
 */
export function runTimedStep(command, args, { spawnOptions = {}, log, stop, graceMs = 15_000 }) {
  return new Promise((resolvePromise, reject) => {
    if (stop.aborted) {
      resolvePromise({ passed: false, stopped: true })
      return
    }
    const child = spawn(command, args, { stdio: log === undefined ? 'inherit' : ['ignore', log, log], ...spawnOptions })
    let stopped = false
    let killer
    let survey
    const seen = new Set()
    const look = () => {
      // The tree is read only while the step lives: once it has exited, its PID may be another process's.
      if (child.exitCode !== null || child.signalCode !== null) return
      for (const pid of descendantsOf(child.pid)) seen.add(pid)
    }
    const killAll = () => {
      look()
      for (const pid of seen) killQuietly(pid)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    const onStop = () => {
      stopped = true
      look()
      child.kill('SIGTERM')
      survey = setInterval(look, SURVEY_MS)
      killer = setTimeout(killAll, graceMs)
    }
    stop.addEventListener('abort', onStop, { once: true })
    const settle = () => {
      stop.removeEventListener('abort', onStop)
      clearInterval(survey)
      clearTimeout(killer)
    }
    child.on('error', (error) => {
      settle()
      reject(error)
    })
    child.on('close', (code) => {
      settle()
      if (stopped) killAll()
      resolvePromise({ passed: code === 0 && !stopped, stopped })
    })
  })
}

/** How often a stopped step's process tree is read again while it has its grace. */
const SURVEY_MS = 200

/**
 * Every process below `pid` (children, their children, …), from one snapshot of the process table (`ps`). Orphans
 * have left the tree (their parent is now init), which is why runTimedStep keeps what it saw while the step lived.
 */
export function descendantsOf(pid) {
  let table
  try {
    table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
  } catch {
    return []
  }
  const children = new Map()
  for (const line of table.split('\n')) {
    const [self, parent] = line.trim().split(/\s+/).map(Number)
    if (!Number.isInteger(self) || !Number.isInteger(parent)) continue
    if (!children.has(parent)) children.set(parent, [])
    children.get(parent).push(self)
  }
  const found = []
  const queue = [pid]
  while (queue.length > 0) {
    for (const next of children.get(queue.shift()) ?? []) {
      found.push(next)
      queue.push(next)
    }
  }
  return found
}

function killQuietly(pid) {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}
