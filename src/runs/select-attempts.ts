// Picks the attempt to score for every (block, sample) across run chains (scoring.md §9.1), each checked against its
// run's seals; scores nothing.
import { compareCodePoints } from '../shared/code-points.ts'
import { sampleKey } from '../shared/sample-key.ts'
import type { AttemptRecord, RunRecord } from './read-run.ts'
import { readRunGraph, type MergedSeals } from './run-chain.ts'
import { sealedButRemoved, verifyRunSeals, type SampleSeal } from './verify-seals.ts'

/**
 * The outcome of selection for one (block, sample): the attempt to score, or why none can be. `seal`: the attempt's
 * folder checked against its seal; an attempt whose seal is flagged is an error (`seal` says why), never scored.
 */
export type SelectedAttempt =
  | { kind: 'attempt'; block: string; sampleId: string; attempt: AttemptRecord; seal?: SampleSeal | undefined }
  | { kind: 'error'; block: string; sampleId: string; error: string; attempt: AttemptRecord | undefined; seal?: SampleSeal | undefined }

/**
 * Reads every run's `source_run` chain (and a merged run's shard runs) and, per (block, sample), takes the newest
 * actual attempt: `pending` records are skipped; a newer failure or unfinished attempt never falls back to an older
 * success. Records in runs that are not on one chain are errors (`Ambiguous sibling attempts` when the runs share an
 * ancestor; two shards of a merge are not on one chain). A shard run is checked against the seals its merge recorded. The
 * selected attempt's seal is checked: a flagged one (changed, planted or removed files, an untrusted seal, an ended
 * sample with no seal in a run that seals) is an error, and a sealed sample whose folder is gone still takes part,
 * as such an error, so that removing a folder cannot drop a failure from the rows.
 * Result order: block, then sample id, in plain code-point order.
 */
export async function selectAttempts(runDirs: readonly string[]): Promise<SelectedAttempt[]> {
  const cache = new Map<string, RunRecord>()
  /** run dir → the set of its ancestors (itself excluded). */
  const ancestors = new Map<string, ReadonlySet<string>>()
  /** shard run dir → the seal chains its merges recorded. */
  const mergedSeals = new Map<string, MergedSeals[]>()
  for (const dir of runDirs) {
    const graph = await readRunGraph(dir, cache)
    for (const [run, ofRun] of graph.ancestors) if (!ancestors.has(run)) ancestors.set(run, ofRun)
    for (const [run, recorded] of graph.mergedSeals) {
      const known = mergedSeals.get(run) ?? []
      mergedSeals.set(run, [...known, ...recorded.filter(one => !known.some(other => other.merge === one.merge))])
    }
  }
  const byKey = new Map<string, AttemptRecord[]>()
  const sealOf = new Map<string, SampleSeal>()
  for (const runDir of ancestors.keys()) {
    const run = cache.get(runDir)
    if (run === undefined) continue
    const seals = await verifyRunSeals(run, { merges: mergedSeals.get(runDir) ?? [] })
    for (const sample of seals.samples) sealOf.set(sample.dir, sample)
    for (const attempt of [...run.attempts, ...sealedButRemoved(run, seals)]) {
      if (attempt.result?.status === 'pending') continue
      const key = sampleKey(attempt.block, attempt.sampleId)
      byKey.set(key, [...(byKey.get(key) ?? []), attempt])
    }
  }
  const selected = [...byKey.values()].map(attempts => withSeal(selectOne(attempts, ancestors), sealOf))
  return selected.sort((a, b) => compareCodePoints(a.block, b.block) || compareCodePoints(a.sampleId, b.sampleId))
}

/** Attaches the selected attempt's seal; a flagged seal turns the selection into an error saying why. */
function withSeal(selected: SelectedAttempt, sealOf: ReadonlyMap<string, SampleSeal>): SelectedAttempt {
  if (selected.attempt === undefined) return selected
  const seal = sealOf.get(selected.attempt.dir)
  if (seal?.flagged !== true) return { ...selected, seal }
  return { kind: 'error', block: selected.block, sampleId: selected.sampleId, attempt: selected.attempt, seal, error: seal.message ?? `${selected.attempt.dir}: its seal fails` }
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
