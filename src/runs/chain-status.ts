// Where a run chain stands (runner.md §7): the newest record of each sample along `source_run` (and through a merged
// run's shard runs), each sample's state (its seal checked) and whether the run's process is still alive. Reads only; which samples a resume runs
// again is the harness's rule (`needsRun`, src/harness/node/run-rules.ts).
import { compareCodePoints } from '../shared/code-points.ts'
import { isNotFoundError } from '../shared/fs-errors.ts'
import { sampleKey } from '../shared/sample-key.ts'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readRunGraph } from './run-chain.ts'
import { isRunAlive } from './run-process.ts'
import type { AttemptRecord, RunRecord } from './read-run.ts'
import { sealedButRemoved, verifyRunSeals, type RunSeals, type SampleSeal } from './verify-seals.ts'

/**
 * A sample's state in a chain. `interrupted`: its process died mid-sample; `damaged`: its records are not to be
 * trusted: its seal fails (a changed, planted or missing file, an untrusted seal line, an ended sample without a seal
 * in a run that seals), or, in a run made before seals, it completed and its archive is gone or changed, or two shard
 * runs of a merge both recorded it (neither is the newer).
 */
export type SampleState = 'pending' | 'running' | 'completed' | 'failed' | 'interrupted' | 'damaged'

/** A run's state; `interrupted` is a run.json still `running` whose process is gone. */
export type RunState = 'running' | 'completed' | 'failed' | 'paused' | 'interrupted'

export interface ChainSample {
  block: string
  sampleId: string
  state: SampleState
  /** The newest record along the chain. */
  attempt: AttemptRecord
  /** Its folder checked against its run's seals. */
  seal: SampleSeal | undefined
  /** Why it is `damaged`: which run, sample and file, and what differs. */
  damage: string | undefined
}

export interface ChainStatus {
  /** The run asked about (last of the chain). */
  run: RunRecord
  /** Every run it is made from (resumed runs, a merge's shard runs), each after its own sources; the run last. */
  chain: RunRecord[]
  state: RunState
  samples: ChainSample[]
  counts: Partial<Record<SampleState, number>>
  /** Each run's seals checked, in chain order (ancestors first; a shard against what each merge of it recorded). */
  seals: RunSeals[]
}

export { currentProcess, isRunAlive, type RunProcess } from './run-process.ts'

export function runState(run: RunRecord): RunState {
  if (run.json.status === 'running' && !isRunAlive(run)) return 'interrupted'
  return run.json.status
}

/**
 * Reads `runDir`'s chain (with a merged run's shard runs) and the state of every sample recorded anywhere in it, each
 * checked against its seal.
 */
export async function chainStatus(runDir: string): Promise<ChainStatus> {
  const graph = await readRunGraph(runDir)
  const chain = graph.runs
  const run = chain.at(-1)!
  const alive = new Map(chain.map(one => [one.dir, isRunAlive(one)]))
  const seals = await Promise.all(chain.map(one => verifyRunSeals(one, { live: alive.get(one.dir) ?? false, merges: graph.mergedSeals.get(one.dir) ?? [] })))
  const sealOf = new Map(seals.flatMap(one => one.samples.map(sample => [sample.dir, sample] as const)))
  const newest = new Map<string, AttemptRecord>()
  /** Samples two runs recorded where neither is made from the other (two shards of a merge): why neither is newest. */
  const conflicts = new Map<string, string>()
  chain.forEach((one, position) => {
    for (const attempt of [...one.attempts, ...sealedButRemoved(one, seals[position]!)]) {
      const key = sampleKey(attempt.block, attempt.sampleId)
      const earlier = newest.get(key)
      // A later run's record replaces an earlier one unless it never got past `pending`.
      if (attempt.result?.status === 'pending' && earlier !== undefined) continue
      if (earlier !== undefined && earlier.result?.status !== 'pending' && earlier.run !== one.dir && !(graph.ancestors.get(one.dir)?.has(earlier.run) ?? false)) {
        conflicts.set(key, `${attempt.block} / ${attempt.sampleId} is recorded by both ${earlier.run} and ${one.dir}, and neither run continues the other (shards of a merge that overlap): neither record is the newest`)
      } else {
        conflicts.delete(key)
      }
      newest.set(key, attempt)
    }
  })
  const samples: ChainSample[] = []
  for (const [key, attempt] of newest) {
    const seal = sealOf.get(attempt.dir)
    const conflict = conflicts.get(key)
    const { state, damage } = conflict === undefined ? await sampleState(attempt, seal, alive.get(attempt.run) ?? false) : { state: 'damaged' as const, damage: conflict }
    samples.push({ block: attempt.block, sampleId: attempt.sampleId, state, attempt, seal, damage })
  }
  samples.sort((a, b) => compareCodePoints(a.block, b.block) || compareCodePoints(a.sampleId, b.sampleId))
  const counts: Partial<Record<SampleState, number>> = {}
  for (const sample of samples) counts[sample.state] = (counts[sample.state] ?? 0) + 1
  return { run, chain, state: runState(run), samples, counts, seals }
}

async function sampleState(attempt: AttemptRecord, seal: SampleSeal | undefined, isAlive: boolean): Promise<{ state: SampleState; damage?: string }> {
  // A failed seal outranks what the records say: they are exactly what cannot be believed.
  if (seal?.flagged === true) return { state: 'damaged', damage: seal.message ?? `${attempt.dir}: its seal fails` }
  const result = attempt.result
  if (result === undefined || result.status === 'pending') return { state: 'pending' }
  if (result.status === 'running') return { state: isAlive ? 'running' : 'interrupted' }
  if (result.execution?.status === 'interrupted') return { state: 'interrupted' }
  if (result.status === 'failed') return { state: 'failed' }
  const expected = result.archive?.sha256
  if (result.archive?.status !== 'saved' || typeof expected !== 'string') return { state: 'completed' }
  const damaged = (what: string) => ({ state: 'damaged' as const, damage: `run ${attempt.run}: ${attempt.block} / ${attempt.sampleId}: ${what}` })
  try {
    const bytes = await readFile(join(attempt.dir, 'final.episode.zip'))
    const found = createHash('sha256').update(bytes).digest('hex')
    return found === expected ? { state: 'completed' } : damaged(`final.episode.zip has SHA-256 ${found}, but result.json records ${expected}`)
  } catch (error) {
    // Only absence is "missing": an archive that cannot be read (permissions, a damaged disk) says why.
    if (isNotFoundError(error)) return damaged('final.episode.zip is missing although result.json says it was saved')
    return damaged(`final.episode.zip cannot be read (${error instanceof Error ? error.message : String(error)})`)
  }
}
