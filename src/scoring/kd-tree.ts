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
  private readonly stackDist: Float64Array
  /** Partition cell of each node (xyz min, xyz max; infinite at the root): every point outside a node's subtree lies outside or on its cell. */
  private readonly cells: Float64Array
  /** Tree position → leaf node holding it. */
  private readonly leafOf: Int32Array

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
    this.cells = new Float64Array(6 * nodes)
    this.cells.fill(-Infinity, 0, 3)
    this.cells.fill(Infinity, 3, 6)
    this.leafOf = new Int32Array(n)
    this.stack = new Int32Array(2 * levels + 4)
    this.stackDist = new Float64Array(2 * levels + 4)
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
    if (level === this.levels) {
      this.leafOf.fill(node, lo, hi)
      return
    }
    const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0
    const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2
    const mid = (lo + hi) >> 1
    selectNth(cloud, order, lo, hi - 1, mid, axis)
    // Left points have coordinate ≤ split, right points ≥ split: the children's cells share the plane at split.
    const split = cloud[3 * order[mid]! + axis]!
    const cells = this.cells
    const c = 6 * node, l = 6 * (2 * node + 1), r = l + 6
    for (let k = 0; k < 6; k++) {
      cells[l + k] = cells[c + k]!
      cells[r + k] = cells[c + k]!
    }
    cells[l + 3 + axis] = split
    cells[r + axis] = split
    this.build(cloud, order, 2 * node + 1, lo, mid, level + 1)
    this.build(cloud, order, 2 * node + 2, mid, hi, level + 1)
  }

  /**
   * Tree position of the exact nearest point to (qx, qy, qz). `hint` is a tree position believed to be near
   * (e.g. the previous answer) or −1; it only bounds the search and never changes the distance found. Ties keep
   * the hint, otherwise the first point met. Sets `distSq` and `secondLowerSq`.
   */
  nearest(qx: number, qy: number, qz: number, hint: number): number {
    if (hint < 0) return this.search(qx, qy, qz, -1, Infinity, 0)
    const pts = this.points
    const dx = qx - pts[3 * hint]!, dy = qy - pts[3 * hint + 1]!, dz = qz - pts[3 * hint + 2]!
    const hintDist = dx * dx + dy * dy + dz * dz
    // Bottom-up: start at the hint's leaf, then test each ancestor's other child, and stop as soon as the ball of
    // radius √second around q lies strictly inside the current node's cell (nothing outside can be closer).
    let node = this.leafOf[hint]!
    let pos = this.search(qx, qy, qz, hint, hintDist, node)
    const cells = this.cells
    const boxes = this.boxes
    while (node > 0) {
      const second = this.secondLowerSq
      if (insideCell(cells, 6 * node, qx, qy, qz, second)) break
      const sibling = (node & 1) === 1 ? node + 1 : node - 1
      if (boxDistSq(boxes, 6 * sibling, qx, qy, qz) < second) {
        const found = this.searchMore(qx, qy, qz, pos, sibling)
        pos = found
      }
      node = (node - 1) >> 1
    }
    return pos
  }

  /** Continues a search (current answer in `distSq`/`secondLowerSq`, position `pos`) into the subtree `root`. */
  private searchMore(qx: number, qy: number, qz: number, pos: number, root: number): number {
    return this.search(qx, qy, qz, pos, this.distSq, root, this.secondLowerSq)
  }

  /**
   * Top-down 2-nearest search of the subtree `root`, starting from the answer (`startPos`, `startDist`) with
   * second-best `startSecond`; `startPos` itself is skipped when met. Sets `distSq` and `secondLowerSq`.
   */
  private search(qx: number, qy: number, qz: number, startPos: number, startDist: number, root: number, startSecond = Infinity): number {
    const pts = this.points
    const boxes = this.boxes
    const stack = this.stack
    const stackDist = this.stackDist
    const nodeStart = this.nodeStart
    const nodeEnd = this.nodeEnd
    const firstLeaf = (1 << this.levels) - 1
    let best = startDist
    let bestPos = startPos
    // Pruning is against the second-best distance, so the search also yields the exact second-nearest distance.
    let second = startSecond
    const hint = startPos
    stack[0] = root
    stackDist[0] = 0
    let top = 1
    while (top > 0) {
      top--
      if (stackDist[top]! >= second) continue
      const node = stack[top]!
      if (node >= firstLeaf) {
        const end = nodeEnd[node]!
        for (let i = nodeStart[node]!; i < end; i++) {
          if (i === hint) continue
          const dx = qx - pts[3 * i]!, dy = qy - pts[3 * i + 1]!, dz = qz - pts[3 * i + 2]!
          const dd = dx * dx + dy * dy + dz * dz
          if (dd < second) {
            if (dd < best) {
              second = best
              best = dd
              bestPos = i
            } else {
              second = dd
            }
          }
        }
        continue
      }
      const left = 2 * node + 1
      const dl = boxDistSq(boxes, 6 * left, qx, qy, qz)
      const dr = boxDistSq(boxes, 6 * left + 6, qx, qy, qz)
      // Push the farther child first so the nearer one is explored first. Every point in a box is at least its
      // box distance away (rounding is monotone), so a box at or beyond `second` cannot hold either answer.
      if (dl <= dr) {
        if (dr < second) { stack[top] = left + 1; stackDist[top++] = dr }
        if (dl < second) { stack[top] = left; stackDist[top++] = dl }
      } else {
        if (dl < second) { stack[top] = left; stackDist[top++] = dl }
        if (dr < second) { stack[top] = left + 1; stackDist[top++] = dr }
      }
    }
    this.distSq = best
    this.secondLowerSq = second
    return bestPos
  }
}

/**
 * True when every face of the cell is strictly farther than √second from q. The test squares the same float gap
 * a distance computation would (rounding is monotone), so any point outside the cell has a float squared distance
 * > second: it can be neither the nearest nor the second nearest.
 */
function insideCell(cells: Float64Array, c: number, qx: number, qy: number, qz: number, second: number): boolean {
  let g = qx - cells[c]!
  if (!(g > 0 && g * g > second)) return false
  g = cells[c + 3]! - qx
  if (!(g > 0 && g * g > second)) return false
  g = qy - cells[c + 1]!
  if (!(g > 0 && g * g > second)) return false
  g = cells[c + 4]! - qy
  if (!(g > 0 && g * g > second)) return false
  g = qz - cells[c + 2]!
  if (!(g > 0 && g * g > second)) return false
  g = cells[c + 5]! - qz
  return g > 0 && g * g > second
}

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
