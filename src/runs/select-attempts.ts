// Picks the attempt to score for every (block, sample) across run chains (scoring.md §9.1); scores nothing.
import { compareCodePoints } from '../shared/code-points.ts'
import type { AttemptRecord, RunRecord } from './read-run.ts'
import { readRunChain } from './run-chain.ts'

/** The outcome of selection for one (block, sample): the attempt to score, or why none can be. */
export type SelectedAttempt =
  | { kind: 'attempt'; block: string; sampleId: string; attempt: AttemptRecord }
  | { kind: 'error'; block: string; sampleId: string; error: string; attempt: AttemptRecord | undefined }

/**
 * Reads every run's `source_run` chain and, per (block, sample), takes the newest actual attempt: `pending`
 * records are skipped; a newer failure or unfinished attempt never falls back to an older success. Records in
 * runs that are not on one chain are errors (`Ambiguous sibling attempts` when the runs share an ancestor).
 * Result order: block, then sample id, in plain code-point order.
 */
export async function selectAttempts(runDirs: readonly string[]): Promise<SelectedAttempt[]> {
  const cache = new Map<string, RunRecord>()
  /** run dir → the set of its ancestors (itself excluded). */
  const ancestors = new Map<string, Set<string>>()
  for (const dir of runDirs) {
    const chain = await readRunChain(dir, cache)
    chain.forEach((run, position) => {
      if (!ancestors.has(run.dir)) ancestors.set(run.dir, new Set(chain.slice(0, position).map(r => r.dir)))
    })
  }
  const byKey = new Map<string, AttemptRecord[]>()
  for (const runDir of ancestors.keys()) {
    const run = cache.get(runDir)
    for (const attempt of run?.attempts ?? []) {
      if (attempt.result?.status === 'pending') continue
      const key = JSON.stringify([attempt.block, attempt.sampleId])
      byKey.set(key, [...(byKey.get(key) ?? []), attempt])
    }
  }
  const selected = [...byKey.values()].map(attempts => selectOne(attempts, ancestors))
  return selected.sort((a, b) => compareCodePoints(a.block, b.block) || compareCodePoints(a.sampleId, b.sampleId))
}

function selectOne(attempts: AttemptRecord[], ancestors: ReadonlyMap<string, ReadonlySet<string>>): SelectedAttempt {
  const first = attempts[0]
  if (first === undefined) throw new Error('selectOne needs at least one attempt')
  const { block, sampleId } = first
  const newest = attempts.find(candidate =>
    attempts.every(other => other === candidate || (ancestors.get(candidate.run)?.has(other.run) ?? false)))
  if (newest !== undefined) return { kind: 'attempt', block, sampleId, attempt: newest }
  const runs = attempts.map(a => a.run)
  const shareAncestor = runs.some((a, i) => runs.some((b, j) => j > i && (sharesAncestor(a, b, ancestors) || a === b)))
  const where = `${block}/${sampleId} in ${runs.join(', ')}`
  return {
    kind: 'error',
    block,
    sampleId,
    attempt: undefined,
    error: shareAncestor
      ? `Ambiguous sibling attempts: ${where}; evaluate one branch of the resume chain`
      : `Duplicate sample in unrelated runs: ${where}; evaluate runs of one chain, or resume instead of re-running`,
  }
}

function sharesAncestor(a: string, b: string, ancestors: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  const ofA = ancestors.get(a) ?? new Set<string>()
  const ofB = ancestors.get(b) ?? new Set<string>()
  for (const dir of ofA) if (ofB.has(dir)) return true
  return false
}
