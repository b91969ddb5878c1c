// A NearestDevice giving exactly the answers of Float32EmulationDevice (the page kernel's float32 brute force: the
// nearest index, lowest index on ties, and the second-smallest float32 squared distance) at KD-tree speed, so the
// lockstep scorer can be checked on whole 1000-point-per-part samples in a unit test. Tests only; its own test
// compares it with the brute force.
//
// Why it is exact: for the float32 query q, the KD tree gives the float64 distances D1 ≤ D2 of the two nearest
// points. Every float32 distance is within a relative 5·2⁻²⁴ of the float64 distance of the same numbers, so a point
// whose float64 distance exceeds D2·(1 + MARGIN) is float32-farther than both of those two points: it can be neither
// the brute force's minimum nor its second-smallest value. Scanning the points within that radius in float32, in
// the kernel's order of operations, therefore gives the brute force's answer.
import { GPU_NO_CANDIDATE } from '../../src/scoring/gpu/certify.ts'
import type { NearestAnswers, NearestGroup } from '../../src/scoring/gpu/device.ts'
import { Float32EmulationDevice, float32DistanceSq, float32Query } from '../../src/scoring/gpu/float32-device.ts'
import { KdTree, type KdTreeArrays } from '../../src/scoring/kd-tree.ts'

/** Relative radius margin over the float32 error (≈ 3·10⁻⁷): generous, it only adds points to scan. */
const MARGIN = 1e-5

/** The KD tree over one uploaded cloud, for range queries. */
interface CloudIndex {
  points: Float32Array
  tree: KdTree
  arrays: KdTreeArrays
  /** Explicit stack for range queries. */
  stack: Int32Array
}

export class KdFloat32Device extends Float32EmulationDevice {
  override readonly renderer: string = 'float32 emulation with KD search (CPU, tests)'
  /** Built on first use per uploaded cloud (the base class owns the clouds). */
  private readonly indexes = new WeakMap<Float32Array, CloudIndex>()

  private index(id: number): CloudIndex {
    const points = this.cloud(id)
    let found = this.indexes.get(points)
    if (found === undefined) {
      const tree = new KdTree(Float64Array.from(points))
      const arrays = tree.arrays()
      found = { points, tree, arrays, stack: new Int32Array(2 * Math.log2(arrays.nodeStart.length + 1) + 8) }
      this.indexes.set(points, found)
    }
    return found
  }

  protected override runGroup(group: NearestGroup): NearestAnswers {
    const src = this.cloud(group.source), target = this.index(group.target)
    const n = src.length / 3
    const maps = group.affines.length / 12
    const index = new Float32Array(n * maps), second = new Float32Array(n * maps)
    const q = new Float64Array(3)
    const answer = { best: 0, next: 0, index: 0 }
    for (let k = 0; k < maps; k++) {
      const b = 12 * k
      // Consecutive source points are neighbours (clouds arrive in tree order): the last answer is a good hint.
      let hint = -1
      for (let i = 0; i < n; i++) {
        float32Query(q, group.affines, b, src[3 * i]!, src[3 * i + 1]!, src[3 * i + 2]!)
        const x = q[0]!, y = q[1]!, z = q[2]!
        hint = target.tree.nearest(x, y, z, hint)
        const radiusSq = target.tree.secondLowerSq * (1 + MARGIN)
        bruteForceWithin(target, x, y, z, radiusSq, answer)
        index[k * n + i] = answer.index
        second[k * n + i] = answer.next
      }
    }
    return { index, second }
  }
}

/** The float32 brute force restricted to the points within √radiusSq of the query (float64 distances). */
function bruteForceWithin(cloud: CloudIndex, x: number, y: number, z: number, radiusSq: number, out: { best: number; next: number; index: number }): void {
  const { nodeStart, nodeEnd, boxes, xs, ys, zs, firstLeaf } = cloud.arrays
  const order = cloud.tree.order, pts = cloud.points, stack = cloud.stack
  let best = GPU_NO_CANDIDATE, next = GPU_NO_CANDIDATE, bi = -1
  let top = 0
  stack[top++] = 0
  while (top > 0) {
    const node = stack[--top]!
    if (boxDistSq(boxes, 6 * node, x, y, z) > radiusSq) continue
    if (node < firstLeaf) {
      stack[top++] = 2 * node + 1
      stack[top++] = 2 * node + 2
      continue
    }
    for (let p = nodeStart[node]!; p < nodeEnd[node]!; p++) {
      const ex = x - xs[p]!, ey = y - ys[p]!, ez = z - zs[p]!
      if (ex * ex + ey * ey + ez * ez > radiusSq) continue
      const j = order[p]!
      const d = float32DistanceSq(x, y, z, pts, j)
      // The brute force scans j upwards and keeps the first minimum: equal distances go to the lower index.
      if (d < best || (d === best && j < bi)) { next = best; best = d; bi = j } else if (d < next) next = d
    }
  }
  out.best = best
  out.next = next
  out.index = bi
}

/** Squared distance from the query to box `boxes[b..b+6)` (xyz min, xyz max); 0 inside. */
function boxDistSq(boxes: Float64Array, b: number, x: number, y: number, z: number): number {
  const gx = Math.max(0, boxes[b]! - x, x - boxes[b + 3]!)
  const gy = Math.max(0, boxes[b + 1]! - y, y - boxes[b + 4]!)
  const gz = Math.max(0, boxes[b + 2]! - z, z - boxes[b + 5]!)
  return gx * gx + gy * gy + gz * gz
}
