// A compact static KD-tree for exact float64 nearest-neighbour queries in 3-D; no approximate search, no insertion.
// Layout: points copied into tree order (interleaved xyz), an implicit complete binary tree (children of node k are
// 2k+1 and 2k+2), a tight bounding box per node, leaves of at most KD_LEAF_SIZE points, an explicit stack per tree.

/** Largest number of points in one leaf; 8–16 balances box tests against point tests. */
export const KD_LEAF_SIZE = 12

/**
 * Exact nearest-neighbour index over a fixed cloud. A query allocates nothing. After `nearest`, the fields
 * `distSq` (the exact squared distance, computed as (qx−px)² + (qy−py)² + (qz−pz)² in that order, so equal bit for
 * bit to a brute-force minimum) and `secondLowerSq` (a lower bound on the squared distance to every other point,
 * used for certificates) describe the answer. Not safe for concurrent use; each worker builds its own tree.
 */
export class KdTree {
  /** Number of points. */
  readonly size: number
  /** Points in tree order, interleaved xyz. */
  readonly points: Float64Array
  /** Tree position → index in the input cloud. */
  readonly order: Int32Array
  /** Squared distance of the last answer. */
  distSq = Infinity
  /** Lower bound on the squared distance from the last query to any point other than the answer. */
  secondLowerSq = Infinity

  private readonly levels: number
  private readonly nodeStart: Int32Array
  private readonly nodeEnd: Int32Array
  private readonly boxes: Float64Array
  private readonly stack: Int32Array

  /** Builds the tree over the flat xyz array `cloud` (length 3·n, n ≥ 1, finite values). */
  constructor(cloud: ArrayLike<number>) {
    const n = cloud.length / 3
    this.size = n
    let levels = 0
    while ((n >> levels) > KD_LEAF_SIZE) levels++
    this.levels = levels
    const nodes = (2 << levels) - 1
    this.nodeStart = new Int32Array(nodes)
    this.nodeEnd = new Int32Array(nodes)
    this.boxes = new Float64Array(6 * nodes)
    this.stack = new Int32Array(2 * levels + 4)
    const order = new Int32Array(n)
    for (let i = 0; i < n; i++) order[i] = i
    this.build(cloud, order, 0, 0, n, 0)
    this.order = order
    const points = new Float64Array(3 * n)
    for (let i = 0; i < n; i++) {
      const src = order[i]!
      points[3 * i] = cloud[3 * src]!
      points[3 * i + 1] = cloud[3 * src + 1]!
      points[3 * i + 2] = cloud[3 * src + 2]!
    }
    this.points = points
  }

  private build(cloud: ArrayLike<number>, order: Int32Array, node: number, lo: number, hi: number, level: number): void {
    this.nodeStart[node] = lo
    this.nodeEnd[node] = hi
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity
    for (let i = lo; i < hi; i++) {
      const p = 3 * order[i]!
      const x = cloud[p]!, y = cloud[p + 1]!, z = cloud[p + 2]!
      if (x < x0) x0 = x
      if (x > x1) x1 = x
      if (y < y0) y0 = y
      if (y > y1) y1 = y
      if (z < z0) z0 = z
      if (z > z1) z1 = z
    }
    const b = 6 * node
    this.boxes[b] = x0; this.boxes[b + 1] = y0; this.boxes[b + 2] = z0
    this.boxes[b + 3] = x1; this.boxes[b + 4] = y1; this.boxes[b + 5] = z1
    if (level === this.levels) return
    const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0
    const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2
    const mid = (lo + hi) >> 1
    selectNth(cloud, order, lo, hi - 1, mid, axis)
    this.build(cloud, order, 2 * node + 1, lo, mid, level + 1)
    this.build(cloud, order, 2 * node + 2, mid, hi, level + 1)
  }

  /**
   * Tree position of the exact nearest point to (qx, qy, qz). `hint` is a tree position believed to be near
   * (e.g. the previous answer) or −1; it only bounds the search and never changes the distance found. Ties keep
   * the hint, otherwise the first point met. Sets `distSq` and `secondLowerSq`.
   */
  nearest(qx: number, qy: number, qz: number, hint: number): number {
    const pts = this.points
    const boxes = this.boxes
    const stack = this.stack
    const nodeStart = this.nodeStart
    const nodeEnd = this.nodeEnd
    const firstLeaf = (1 << this.levels) - 1
    let best = Infinity
    let bestPos = -1
    let second = Infinity
    if (hint >= 0) {
      const dx = qx - pts[3 * hint]!, dy = qy - pts[3 * hint + 1]!, dz = qz - pts[3 * hint + 2]!
      best = dx * dx + dy * dy + dz * dz
      bestPos = hint
    }
    let top = 0
    stack[top++] = 0
    while (top > 0) {
      const node = stack[--top]!
      const b = 6 * node
      let gap = boxes[b]! - qx
      let d = 0
      if (gap > 0) d += gap * gap
      else { gap = qx - boxes[b + 3]!; if (gap > 0) d += gap * gap }
      gap = boxes[b + 1]! - qy
      if (gap > 0) d += gap * gap
      else { gap = qy - boxes[b + 4]!; if (gap > 0) d += gap * gap }
      gap = boxes[b + 2]! - qz
      if (gap > 0) d += gap * gap
      else { gap = qz - boxes[b + 5]!; if (gap > 0) d += gap * gap }
      // Every point in the box is at least d away (rounding is monotone), so d bounds the second distance too.
      if (d >= best) {
        if (d < second) second = d
        continue
      }
      if (node >= firstLeaf) {
        const end = nodeEnd[node]!
        for (let i = nodeStart[node]!; i < end; i++) {
          if (i === hint) continue
          const dx = qx - pts[3 * i]!, dy = qy - pts[3 * i + 1]!, dz = qz - pts[3 * i + 2]!
          const dd = dx * dx + dy * dy + dz * dz
          if (dd < best) {
            second = best
            best = dd
            bestPos = i
          } else if (dd < second) {
            second = dd
          }
        }
        continue
      }
      // Visit the child whose box centre is nearer first: push it last.
      const left = 2 * node + 1
      const axisSpan = boxes[b + 3]! - boxes[b]! >= boxes[b + 4]! - boxes[b + 1]!
        ? (boxes[b + 3]! - boxes[b]! >= boxes[b + 5]! - boxes[b + 2]! ? 0 : 2)
        : (boxes[b + 4]! - boxes[b + 1]! >= boxes[b + 5]! - boxes[b + 2]! ? 1 : 2)
      const q = axisSpan === 0 ? qx : axisSpan === 1 ? qy : qz
      const lb = 6 * left
      const leftMid = boxes[lb + axisSpan]! + boxes[lb + 3 + axisSpan]!
      const rb = lb + 6
      const rightMid = boxes[rb + axisSpan]! + boxes[rb + 3 + axisSpan]!
      if (Math.abs(2 * q - leftMid) <= Math.abs(2 * q - rightMid)) {
        stack[top++] = left + 1
        stack[top++] = left
      } else {
        stack[top++] = left
        stack[top++] = left + 1
      }
    }
    this.distSq = best
    this.secondLowerSq = second
    return bestPos
  }
}

/** Quickselect on `order[lo..hi]` (inclusive) so order[k] has the k-th smallest coordinate `axis`; deterministic. */
function selectNth(cloud: ArrayLike<number>, order: Int32Array, lo: number, hi: number, k: number, axis: number): void {
  while (hi > lo) {
    const pivot = cloud[3 * order[(lo + hi) >> 1]! + axis]!
    let i = lo, j = hi
    while (i <= j) {
      while (cloud[3 * order[i]! + axis]! < pivot) i++
      while (cloud[3 * order[j]! + axis]! > pivot) j--
      if (i <= j) {
        const t = order[i]!
        order[i] = order[j]!
        order[j] = t
        i++
        j--
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return
  }
}

/** Exact brute-force nearest index (first minimum) of (qx, qy, qz) in the flat cloud; for tests and tiny clouds. */
export function bruteForceNearest(cloud: ArrayLike<number>, qx: number, qy: number, qz: number): number {
  let best = Infinity
  let bestIdx = -1
  const n = cloud.length / 3
  for (let i = 0; i < n; i++) {
    const dx = qx - cloud[3 * i]!, dy = qy - cloud[3 * i + 1]!, dz = qz - cloud[3 * i + 2]!
    const d = dx * dx + dy * dy + dz * dz
    if (d < best) {
      best = d
      bestIdx = i
    }
  }
  return bestIdx
}
