// Follows `source_run` links from a run back to its root (runner.md §7.2); reads records, decides nothing.
import { dirname, isAbsolute, resolve } from 'node:path'
import { RunError } from './errors.ts'
import { readRun, type RunRecord } from './read-run.ts'

/**
 * Returns the chain of `dir`, ancestors first and `dir` last. `source_run` is an absolute path; a relative
 * one is taken relative to the run's parent folder (a moved logs folder keeps working).
 * Throws `RunError` on a cycle or an unreadable ancestor.
 */
export async function readRunChain(dir: string, cache: Map<string, RunRecord> = new Map()): Promise<RunRecord[]> {
  const chain: RunRecord[] = []
  const seen = new Set<string>()
  let next: string | undefined = dir
  while (next !== undefined) {
    const run = await readCached(next, cache)
    if (seen.has(run.dir)) {
      throw new RunError('RUN_CHAIN_CYCLE', `source_run links form a cycle through ${run.dir}; fix source_run in run.json`, { file: resolve(dir, 'run.json') })
    }
    seen.add(run.dir)
    chain.unshift(run)
    const source: string | null | undefined = run.json.source_run
    next = source == null ? undefined : isAbsolute(source) ? source : resolve(dirname(run.dir), source)
  }
  return chain
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
