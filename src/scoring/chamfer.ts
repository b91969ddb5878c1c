// Bidirectional Chamfer distance between two point sets (scoring.md §5.1) with exact nearest neighbours; no alignment.
import { KdTree } from './kd-tree.ts'

/** Below this many pair tests, brute force is cheaper than building trees (and exact either way). */
const BRUTE_FORCE_MAX_PAIRS = 4096

/**
 * chamfer(A, B) = mean_a min_b ‖a − b‖² + mean_b min_a ‖a − b‖² for flat xyz arrays (each ≥ 1 point).
 * Squared distances, no square root, no factor ½. Exact: KD-trees for large sets, brute force for tiny ones.
 */
export function chamferDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = a.length / 3
  const nb = b.length / 3
  if (na * nb <= BRUTE_FORCE_MAX_PAIRS) return directedBrute(a, b) / na + directedBrute(b, a) / nb
  return directedTree(a, new KdTree(b)) / na + directedTree(b, new KdTree(a)) / nb
}

/** Σ over a of the squared distance to the nearest b. */
function directedTree(a: ArrayLike<number>, tree: KdTree): number {
  let sum = 0
  let hint = -1
  for (let i = 0; i < a.length; i += 3) {
    hint = tree.nearest(a[i]!, a[i + 1]!, a[i + 2]!, hint)
    sum += tree.distSq
  }
  return sum
}

function directedBrute(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0
  for (let i = 0; i < a.length; i += 3) {
    const x = a[i]!, y = a[i + 1]!, z = a[i + 2]!
    let best = Infinity
    for (let j = 0; j < b.length; j += 3) {
      const dx = x - b[j]!, dy = y - b[j + 1]!, dz = z - b[j + 2]!
      const d = dx * dx + dy * dy + dz * dz
      if (d < best) best = d
    }
    sum += best
  }
  return sum
}
