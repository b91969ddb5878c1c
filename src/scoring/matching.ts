// Part matching within equivalence groups (scoring.md §7) by exact Hungarian assignment; no alignment, no thresholds.
import { munkres } from 'munkres'
import { chamferDistance } from './chamfer.ts'

/** The part → GT assignment of one group and the matched Chamfers. */
export interface GroupMatch {
  /** target[k] = member index (into the group) assigned to prediction member k. */
  target: number[]
  /** chamfer[k] = Chamfer of prediction member k against its assigned target. */
  chamfer: number[]
}

/**
 * Minimum-total-cost assignment of a square cost matrix (rows = predictions, columns = targets). Uses the
 * `munkres` package, whose float arithmetic is exact enough to return an optimal assignment (tested against
 * enumeration); costs are passed unclipped (§7.2).
 */
export function assignMinimumCost(cost: readonly (readonly number[])[]): number[] {
  const m = cost.length
  const out = new Array<number>(m).fill(-1)
  if (m === 0) return out
  if (m === 1) {
    out[0] = 0
    return out
  }
  for (const [row, col] of munkres(cost.map(r => Array.from(r)))) out[row] = col
  return out
}

/**
 * Matches the aligned prediction clouds of one group's members to their target clouds (§7 steps 2–3):
 * cost[a][b] = chamfer(prediction of member a, target of member b).
 */
export function matchGroup(predictions: readonly ArrayLike<number>[], targets: readonly ArrayLike<number>[]): GroupMatch {
  const m = predictions.length
  const cost: number[][] = []
  for (let a = 0; a < m; a++) {
    const row: number[] = []
    for (let b = 0; b < m; b++) row.push(chamferDistance(predictions[a]!, targets[b]!))
    cost.push(row)
  }
  const target = assignMinimumCost(cost)
  return { target, chamfer: target.map((b, a) => cost[a]![b]!) }
}
