// Where a run chain stands (runner.md §7): the newest record of each sample along `source_run`, each sample's
// state, whether the run's process is still alive, and what a resume must run again. Reads; writes nothing.
import { compareCodePoints } from '../shared/code-points.ts'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { readRunChain } from './run-chain.ts'
import type { AttemptRecord, RunRecord } from './read-run.ts'

/** A sample's state in a chain. `interrupted`: its process died mid-sample; `damaged`: completed, archive gone or changed. */
export type SampleState = 'pending' | 'running' | 'completed' | 'failed' | 'interrupted' | 'damaged'

/** A run's state; `interrupted` is a run.json still `running` whose process is gone. */
export type RunState = 'running' | 'completed' | 'failed' | 'paused' | 'interrupted'

export interface ChainSample {
  block: string
  sampleId: string
  state: SampleState
  /** The newest record along the chain. */
  attempt: AttemptRecord
}

export interface ChainStatus {
  /** The run asked about (last of the chain). */
  run: RunRecord
  /** Ancestors first. */
  chain: RunRecord[]
  state: RunState
  samples: ChainSample[]
  counts: Partial<Record<SampleState, number>>
}

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

export function runState(run: RunRecord): RunState {
  if (run.json.status === 'running' && !isRunAlive(run)) return 'interrupted'
  return run.json.status
}

/** Reads `runDir`'s chain and the state of every sample recorded anywhere in it. */
export async function chainStatus(runDir: string): Promise<ChainStatus> {
  const chain = await readRunChain(runDir)
  const run = chain.at(-1)!
  const alive = new Map(chain.map(one => [one.dir, isRunAlive(one)]))
  const newest = new Map<string, AttemptRecord>()
  for (const one of chain) {
    for (const attempt of one.attempts) {
      const key = JSON.stringify([attempt.block, attempt.sampleId])
      // A later run's record replaces an earlier one unless it never got past `pending`.
      if (attempt.result?.status === 'pending' && newest.has(key)) continue
      newest.set(key, attempt)
    }
  }
  const samples: ChainSample[] = []
  for (const attempt of newest.values()) {
    samples.push({ block: attempt.block, sampleId: attempt.sampleId, state: await sampleState(attempt, alive.get(attempt.run) ?? false), attempt })
  }
  samples.sort((a, b) => compareCodePoints(a.block, b.block) || compareCodePoints(a.sampleId, b.sampleId))
  const counts: Partial<Record<SampleState, number>> = {}
  for (const sample of samples) counts[sample.state] = (counts[sample.state] ?? 0) + 1
  return { run, chain, state: runState(run), samples, counts }
}

/** Samples a resume runs again (runner.md §7.2 rule 3): unfinished, interrupted or damaged; failed ones on request. */
export function needsRun(state: SampleState, retryFailed: boolean): boolean {
  return state === 'pending' || state === 'running' || state === 'interrupted' || state === 'damaged' || (retryFailed && state === 'failed')
}

async function sampleState(attempt: AttemptRecord, isAlive: boolean): Promise<SampleState> {
  const result = attempt.result
  if (result === undefined || result.status === 'pending') return 'pending'
  if (result.status === 'running') return isAlive ? 'running' : 'interrupted'
  if (result.execution?.status === 'interrupted') return 'interrupted'
  if (result.status === 'failed') return 'failed'
  const expected = result.archive?.sha256
  if (result.archive?.status !== 'saved' || typeof expected !== 'string') return 'completed'
  try {
    const bytes = await readFile(join(attempt.dir, 'final.episode.zip'))
    return createHash('sha256').update(bytes).digest('hex') === expected ? 'completed' : 'damaged'
  } catch {
    return 'damaged'
  }
}
