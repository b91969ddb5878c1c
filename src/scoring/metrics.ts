// SCD, PA and SR from matched part Chamfers (scoring.md §8.1) and per-part records (§7.4–7.5); no geometry.
import { compareCodePoints } from '../shared/code-points.ts'
import { ScoringError } from './errors.ts'
import { matchGroup } from './matching.ts'

/** A part is correct when its matched Chamfer is at most this (inclusive, §8.1). */
export const PART_CHAMFER_THRESHOLD = 0.01
/** SCD = this × the alignment objective (§8.1). */
export const SCD_SCALE = 1000

/** One part's record in a scored row. */
export interface PartRecord {
  part_id: string
  target_part_id: string
  chamfer: number
  correct: boolean
}

export interface SampleMetrics {
  SCD: number
  PA: number
  SR: number
}

export interface PartsScore extends SampleMetrics {
  parts: PartRecord[]
}

/** SCD/PA/SR from part Chamfers and the shape Chamfer; throws on no parts or non-finite values (§8.2). */
export function metricsFromErrors(errors: readonly number[], shapeChamfer: number): SampleMetrics {
  if (errors.length === 0) {
    throw new ScoringError('SCORING_NONFINITE_RESULT', 'No part errors at all: a sample needs at least one part to be scored')
  }
  if (!Number.isFinite(shapeChamfer)) {
    throw new ScoringError('SCORING_NONFINITE_RESULT', `Non-finite shape Chamfer ${shapeChamfer}: the aligned clouds contain non-finite values`)
  }
  let correct = 0
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i]!
    if (!Number.isFinite(e)) {
      throw new ScoringError('SCORING_NONFINITE_RESULT', `Non-finite part error ${e} at part index ${i}: the aligned clouds contain non-finite values`)
    }
    if (e <= PART_CHAMFER_THRESHOLD) correct++
  }
  return { SCD: SCD_SCALE * shapeChamfer, PA: correct / errors.length, SR: correct === errors.length ? 1 : 0 }
}

/**
 * score_parts of §7: Hungarian matching within each group (index lists forming a partition, validated by the
 * caller), then metrics. `aligned[i]` and `targets[i]` are part i's flat xyz clouds; records sorted by part id.
 */
export function scoreParts(
  aligned: readonly ArrayLike<number>[], targets: readonly ArrayLike<number>[], groups: readonly (readonly number[])[],
  partIds: readonly string[], shapeChamfer: number,
): PartsScore {
  const parts = new Array<PartRecord>(partIds.length)
  for (const group of groups) {
    const match = matchGroup(group.map(i => aligned[i]!), group.map(i => targets[i]!))
    group.forEach((member, k) => {
      const chamfer = match.chamfer[k]!
      parts[member] = {
        part_id: partIds[member]!,
        target_part_id: partIds[group[match.target[k]!]!]!,
        chamfer,
        correct: chamfer <= PART_CHAMFER_THRESHOLD,
      }
    })
  }
  const metrics = metricsFromErrors(parts.map(p => p.chamfer), shapeChamfer)
  // Code-point order (scoring.md §7 step 5, §12.1), as evaluation.json's part_ids are checked; `<` compares UTF-16 units.
  parts.sort((a, b) => compareCodePoints(a.part_id, b.part_id))
  return { ...metrics, parts }
}
