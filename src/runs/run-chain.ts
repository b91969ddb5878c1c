// Follows the runs a run is made from (runner.md §7.2): `source_run` back to the root of a resume chain, and the shard
// runs of a merged run (`--merge-reports`, run.json `merge`). Reads records, decides nothing.
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { RunError } from './errors.ts'
import { readRun, type RunRecord } from './read-run.ts'

/** How a merge recorded a shard run's seal chain when it read it (run.json `merge.shards[].seals`). */
export interface MergedSeals {
  /** The merged run that recorded it. */
  merge: string
  count: number
  head: string | null
}

/** A run and every run it is made from, directly or not. */
export interface RunGraph {
  /** Every run, each after the runs it is made from; the run asked about last. A resume chain is in chain order. */
  runs: RunRecord[]
  /** Per run directory: every run it is made from, directly or not (itself excluded). */
  ancestors: Map<string, ReadonlySet<string>>
  /** Per shard run directory: the seal chains the merges made from it recorded (their seals must still match). */
  mergedSeals: Map<string, MergedSeals[]>
}

/**
 * Returns the chain of `dir`, ancestors first and `dir` last: `readRunGraph(dir).runs`. `source_run` is an absolute
 * path; a relative one is taken relative to the run's parent folder (a moved logs folder keeps working).
 * Throws `RunError` on a cycle, an unreadable ancestor or a missing shard run.
 */
export async function readRunChain(dir: string, cache: Map<string, RunRecord> = new Map()): Promise<RunRecord[]> {
  return (await readRunGraph(dir, cache)).runs
}

/**
 * Reads `dir` and every run it is made from: its `source_run` (a resume), and for a merged run each shard run, found
 * by its id beside the merged run's folder (where `--merge-reports` read it). Two shards are not each other's
 * ancestors: a sample both recorded has no newest record. Throws `RunError` on a cycle, an unreadable run or a
 * missing shard run (`RUN_MERGE_SHARD_MISSING`, saying where to copy it).
 */
export async function readRunGraph(dir: string, cache: Map<string, RunRecord> = new Map()): Promise<RunGraph> {
  const runs: RunRecord[] = []
  const ancestors = new Map<string, ReadonlySet<string>>()
  const mergedSeals = new Map<string, MergedSeals[]>()
  const visiting = new Set<string>()
  const visit = async (run: RunRecord): Promise<void> => {
    if (ancestors.has(run.dir)) return
    if (visiting.has(run.dir)) {
      throw new RunError('RUN_CHAIN_CYCLE', `source_run links form a cycle through ${run.dir}; fix source_run in run.json`, { file: resolve(dir, 'run.json') })
    }
    visiting.add(run.dir)
    const own = new Set<string>()
    for (const source of await readSources(run, cache)) {
      await visit(source.run)
      own.add(source.run.dir)
      for (const ancestor of ancestors.get(source.run.dir) ?? []) own.add(ancestor)
      if (source.seals !== undefined) mergedSeals.set(source.run.dir, [...(mergedSeals.get(source.run.dir) ?? []), source.seals])
    }
    visiting.delete(run.dir)
    ancestors.set(run.dir, own)
    runs.push(run)
  }
  await visit(await readCached(dir, cache))
  return { runs, ancestors, mergedSeals }
}

/** The runs `run` is made from, read: its `source_run`, then a merge's shard runs in the order the merge lists them. */
async function readSources(run: RunRecord, cache: Map<string, RunRecord>): Promise<{ run: RunRecord; seals?: MergedSeals }[]> {
  const sources: { run: RunRecord; seals?: MergedSeals }[] = []
  const source: string | null | undefined = run.json.source_run
  if (source != null) sources.push({ run: await readCached(isAbsolute(source) ? source : resolve(dirname(run.dir), source), cache) })
  for (const shard of run.json.merge?.shards ?? []) {
    const shardDir = join(dirname(run.dir), shard.run)
    let shardRun: RunRecord
    try {
      shardRun = await readCached(shardDir, cache)
    } catch (error) {
      if (!(error instanceof RunError) || error.code !== 'RUN_NOT_FOUND') throw error
      throw new RunError('RUN_MERGE_SHARD_MISSING', `the merged run ${run.dir} reports the records of shard run ${shard.run}, which is not beside it; copy that shard's runs folder so that ${shardDir} holds its run.json (a merge reads the shards' records, it does not copy them), or pass the shard runs that are there`, { file: shardDir, cause: error })
    }
    sources.push({ run: shardRun, ...(shard.seals === null ? {} : { seals: { merge: run.dir, count: shard.seals.count, head: shard.seals.head } }) })
  }
  return sources
}

async function readCached(dir: string, cache: Map<string, RunRecord>): Promise<RunRecord> {
  const key = resolve(dir)
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  const run = await readRun(dir)
  cache.set(key, run)
  cache.set(run.dir, run)
  return run
}

/**
 * The folder of `dir` and of every run it is made from (its resume chain, a merge's shards), for what must stay out of
 * an agent's reach: their final episodes solve samples. As far as the records can be read: a folder that is no run
 * (an `awb eval` output holding only metrics.jsonl) or a broken chain gives what was found, `dir` at least.
 */
export async function runFoldersOf(dir: string): Promise<string[]> {
  const folders = new Set([resolve(dir)])
  try {
    for (const run of (await readRunGraph(dir)).runs) folders.add(run.dir)
  } catch {
    // The chain's own errors are the resume's or the comparison's to report, in their words.
  }
  return [...folders]
}
