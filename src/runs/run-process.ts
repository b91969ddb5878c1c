// Which process writes a run (run.json `process`), and whether it is still alive; shared by the writer and readers.
import { hostname } from 'node:os'
import type { RunRecord } from './read-run.ts'

/** The process that writes a run, recorded in run.json so that a reader can tell a live run from a dead one. */
export interface RunProcess {
  pid: number
  host: string
}

export function currentProcess(): RunProcess {
  return { pid: process.pid, host: hostname() }
}

/** Whether the run's writer is alive: unknown writers (other runners, other hosts) count as alive. */
export function isRunAlive(run: RunRecord): boolean {
  if (run.json.status !== 'running') return false
  const writer = (run.json as { process?: Partial<RunProcess> }).process
  if (typeof writer?.pid !== 'number' || writer.host !== hostname()) return true
  try {
    process.kill(writer.pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
