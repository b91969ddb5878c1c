// A compact static KD-tree for exact float64 nearest-neighbour queries in 3-D; no approximate search, no insertion.
// Layout: points copied into tree order (interleaved xyz, plus one Float64Array per axis for the query loop), an
// implicit complete binary tree (children of node k are 2k+1 and 2k+2), per node a tight bounding box and the split
// plane (axis, value), leaves of at most KD_LEAF_SIZE points, an explicit preallocated stack per tree.

/** Largest number of points in one leaf; 8–16 balances box tests against point tests. */
export const KD_LEAF_SIZE = 12

/** The typed arrays of a built tree, for a kernel that runs `nearest` elsewhere (the WebAssembly ICP objective). Read only. */
export interface KdTreeArrays {
  size: number
  firstLeaf: number
  nodeStart: Int32Array
  nodeEnd: Int32Array
  boxes: Float64Array
  splitAxis: Uint8Array
  splitValue: Float64Array
  xs: Float64Array
  ys: Float64Array
  zs: Float64Array
  leafOf: Int32Array
  nextOf: Int32Array
  points: Float64Array
}

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
  private readonly firstLeaf: number
  private readonly nodeStart: Int32Array
  private readonly nodeEnd: Int32Array
  /** Tight box of each node's points: xyz min, xyz max. */
  private readonly boxes: Float64Array
  /** Split axis of each internal node: its left child's points have coordinate ≤ `splitValue`, its right child's ≥. */
  private readonly splitAxis: Uint8Array
  private readonly splitValue: Float64Array
  /** Coordinates in tree order, one array per axis (what the query loop reads). */
  private readonly xs: Float64Array
  private readonly ys: Float64Array
  private readonly zs: Float64Array
  /** Tree position → leaf node holding it. */
  private readonly leafOf: Int32Array
  /** Tree position → tree position of its nearest other point (−1 for a one-point cloud). */
  private readonly nextOf: Int32Array
  private readonly stack: Int32Array
  private readonly stackDist: Float64Array
  /** Tree position of the second-nearest point of the last query (−1 when there is none). */
  private secondPos = -1

  /** Builds the tree over the flat xyz array `cloud` (length 3·n, n ≥ 1, finite values). */
  constructor(cloud: ArrayLike<number>) {
    const n = cloud.length / 3
    this.size = n
    let levels = 0
    while ((n >> levels) > KD_LEAF_SIZE) levels++
    this.levels = levels
    this.firstLeaf = (1 << levels) - 1
    const nodes = (2 << levels) - 1
    this.nodeStart = new Int32Array(nodes)
    this.nodeEnd = new Int32Array(nodes)
    this.boxes = new Float64Array(6 * nodes)
    this.splitAxis = new Uint8Array(nodes)
    this.splitValue = new Float64Array(nodes)
    this.leafOf = new Int32Array(n)
    this.stack = new Int32Array(2 * levels + 4)
    this.stackDist = new Float64Array(2 * levels + 4)
    const order = new Int32Array(n)
    for (let i = 0; i < n; i++) order[i] = i
    this.build(cloud, order, 0, 0, n, 0)
    this.order = order
    const points = new Float64Array(3 * n)
    const xs = new Float64Array(n), ys = new Float64Array(n), zs = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const src = 3 * order[i]!
      points[3 * i] = xs[i] = cloud[src]!
      points[3 * i + 1] = ys[i] = cloud[src + 1]!
      points[3 * i + 2] = zs[i] = cloud[src + 2]!
    }
    this.points = points
    this.xs = xs
    this.ys = ys
    this.zs = zs
    // Each point's nearest other point seeds a hinted query with a real second candidate, so pruning starts at once.
    this.nextOf = new Int32Array(n).fill(-1)
    for (let i = 0; i < n; i++) {
      const pos = this.nearest(xs[i]!, ys[i]!, zs[i]!, -1)
      this.nextOf[i] = pos === i ? this.secondPos : pos
    }
  }

  /** The tree's arrays (shared, not copied); callers must not modify them. */
  arrays(): KdTreeArrays {
    const { size, firstLeaf, nodeStart, nodeEnd, boxes, splitAxis, splitValue, xs, ys, zs, leafOf, nextOf, points } = this
    return { size, firstLeaf, nodeStart, nodeEnd, boxes, splitAxis, splitValue, xs, ys, zs, leafOf, nextOf, points }
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
    if (level === this.levels) {
      this.leafOf.fill(node, lo, hi)
      return
    }
    const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0
    const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2
    const mid = (lo + hi) >> 1
    selectNth(cloud, order, lo, hi - 1, mid, axis)
    // Quickselect leaves every point before `mid` at ≤ and every point from `mid` on at ≥ the split coordinate.
    this.splitAxis[node] = axis
    this.splitValue[node] = cloud[3 * order[mid]! + axis]!
    this.build(cloud, order, 2 * node + 1, lo, mid, level + 1)
    this.build(cloud, order, 2 * node + 2, mid, hi, level + 1)
  }

  /**
   * Tree position of the exact nearest point to (qx, qy, qz). `hint` is a tree position believed to be near
   * (e.g. the previous answer) or −1; it only bounds the search and never changes the distance found. Ties keep
   * the hint, otherwise the first point met. Sets `distSq` and `secondLowerSq` (here the exact second-nearest
   * squared distance). One function with an explicit stack, so V8 keeps the running bests in registers.
   */
  nearest(qx: number, qy: number, qz: number, hint: number): number {
    const xs = this.xs, ys = this.ys, zs = this.zs
    const boxes = this.boxes, splitAxis = this.splitAxis, splitValue = this.splitValue
    const nodeStart = this.nodeStart, nodeEnd = this.nodeEnd
    const stack = this.stack, stackDist = this.stackDist
    const firstLeaf = this.firstLeaf
    // Pruning is against the second-best distance, so the search also yields the exact second-nearest distance.
    let best = Infinity, second = Infinity, bestPos = -1, secondPos = -1
    let node = 0
    if (hint >= 0) {
      // Start from two real points (the hint and its nearest other point) and the hint's leaf; the search then
      // climbs towards the root, so no descent is needed.
      let dx = qx - xs[hint]!, dy = qy - ys[hint]!, dz = qz - zs[hint]!
      best = dx * dx + dy * dy + dz * dz
      bestPos = hint
      const next = this.nextOf[hint]!
      if (next >= 0) {
        dx = qx - xs[next]!; dy = qy - ys[next]!; dz = qz - zs[next]!
        const d = dx * dx + dy * dy + dz * dz
        if (d < best) { second = best; secondPos = hint; best = d; bestPos = next } else { second = d; secondPos = next }
      }
      node = this.leafOf[hint]!
    }
    stack[0] = node
    stackDist[0] = 0
    let top = 1
    for (;;) {
      // Top-down search of the subtrees on the stack (nearer child first).
      while (top > 0) {
        top--
        if (stackDist[top]! >= second) continue
        const at = stack[top]!
        if (at >= firstLeaf) {
          const end = nodeEnd[at]!
          for (let i = nodeStart[at]!; i < end; i++) {
            const dx = qx - xs[i]!, dy = qy - ys[i]!, dz = qz - zs[i]!
            const dd = dx * dx + dy * dy + dz * dz
            // A point already counted (the hint pair) is either the best or at ≥ second, so it never re-enters.
            if (dd < second && i !== bestPos) {
              if (dd < best) { second = best; secondPos = bestPos; best = dd; bestPos = i } else { second = dd; secondPos = i }
            }
          }
          continue
        }
        const left = 2 * at + 1
        const dl = boxDistSq(boxes, 6 * left, qx, qy, qz)
        const dr = boxDistSq(boxes, 6 * left + 6, qx, qy, qz)
        // Every point in a box is at least its box distance away (rounding is monotone), so a box at or beyond
        // `second` can hold neither answer. The farther child is pushed first so the nearer one is searched first.
        if (dl <= dr) {
          if (dr < second) { stack[top] = left + 1; stackDist[top++] = dr }
          if (dl < second) { stack[top] = left; stackDist[top++] = dl }
        } else {
          if (dl < second) { stack[top] = left; stackDist[top++] = dl }
          if (dr < second) { stack[top] = left + 1; stackDist[top++] = dr }
        }
      }
      // Bottom-up from the hint's leaf: the sibling subtree lies beyond the parent's split plane; skip it when the
      // plane is at least √second away (its points are then at ≥ second: the squared gap rounds no higher than any
      // of their squared coordinate differences), else test its box.
      if (node === 0) break
      const parent = (node - 1) >> 1
      const axis = splitAxis[parent]!
      const qa = axis === 0 ? qx : axis === 1 ? qy : qz
      const gap = (node & 1) === 1 ? splitValue[parent]! - qa : qa - splitValue[parent]!
      if (!(gap > 0 && gap * gap >= second)) {
        const sibling = (node & 1) === 1 ? node + 1 : node - 1
        const d = boxDistSq(boxes, 6 * sibling, qx, qy, qz)
        if (d < second) { stack[0] = sibling; stackDist[0] = d; top = 1 }
      }
      node = parent
    }
    this.distSq = best
    this.secondLowerSq = second
    this.secondPos = secondPos
    return bestPos
  }
}

/** Squared distance from q to the box at `boxes[b..b+6)`, summed x, y, z like a point distance (0 inside). */
function boxDistSq(boxes: Float64Array, b: number, qx: number, qy: number, qz: number): number {
  let d = 0
  let gap = boxes[b]! - qx
  if (gap > 0) d += gap * gap
  else { gap = qx - boxes[b + 3]!; if (gap > 0) d += gap * gap }
  gap = boxes[b + 1]! - qy
  if (gap > 0) d += gap * gap
  else { gap = qy - boxes[b + 4]!; if (gap > 0) d += gap * gap }
  gap = boxes[b + 2]! - qz
  if (gap > 0) d += gap * gap
  else { gap = qz - boxes[b + 5]!; if (gap > 0) d += gap * gap }
  return d
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
