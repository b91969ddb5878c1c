// Geometry-similarity equivalence groups (scoring.md §2.2, informative): pairwise shape distance and grouping; not used when scoring.
import { runStarts, pickWinner } from './align.ts'
import { pcaFrame } from './pca.ts'
import { pcaStarts } from './starts.ts'

/**
 * Connected components of the graph "distance[i][j] ≤ threshold" (inclusive, transitive), ordered by their smallest
 * member index, members in index order (§2.2; conformance 09). `distances` is a symmetric n×n matrix.
 */
export function similarityGroups(distances: readonly (readonly number[])[], threshold: number): number[][] {
  const n = distances.length
  const component = new Array<number>(n).fill(-1)
  const groups: number[][] = []
  for (let seed = 0; seed < n; seed++) {
    if (component[seed] !== -1) continue
    const id = groups.length
    const members: number[] = []
    const queue = [seed]
    component[seed] = id
    while (queue.length > 0) {
      const i = queue.pop()!
      members.push(i)
      for (let j = 0; j < n; j++) {
        if (component[j] === -1 && distances[i]![j]! <= threshold) {
          component[j] = id
          queue.push(j)
        }
      }
    }
    groups.push(members.sort((a, b) => a - b))
  }
  return groups
}

/**
 * Shape distance of two parts (§2.2): each local cloud placed in its own PCA frame, divided by the scale divisor,
 * then the best objective of the 24-start symmetric ICP (no pose starts). Throws `SCORING_DEGENERATE_PART`.
 */
export function shapeDistance(a: ArrayLike<number>, b: ArrayLike<number>, scaleDivisor: number): number {
  const pa = canonical(a, scaleDivisor, 'part A')
  const pb = canonical(b, scaleDivisor, 'part B')
  const starts = pcaStarts(pcaFrame(pa, 'part A'), pcaFrame(pb, 'part B'))
  const results = runStarts(pa, pb, starts)
  return results[pickWinner(results)]!.chamfer
}

/** (x − c)·B / d: the cloud in its PCA frame, scaled by the divisor. */
function canonical(cloud: ArrayLike<number>, d: number, what: string): Float64Array {
  const { center, basis } = pcaFrame(cloud, what)
  const out = new Float64Array(cloud.length)
  for (let i = 0; i < cloud.length; i += 3) {
    const x = cloud[i]! - center[0]!, y = cloud[i + 1]! - center[1]!, z = cloud[i + 2]! - center[2]!
    for (let k = 0; k < 3; k++) out[i + k] = (x * basis[k]! + y * basis[3 + k]! + z * basis[6 + k]!) / d
  }
  return out
}
