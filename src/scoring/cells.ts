// Exact nearest-neighbour shortcuts for ICP (scoring.md §12a): per point j of a static cloud, a guaranteed SUPERSET S_j
// of the points whose bisectors bound j's Voronoi cell clipped to a box B, so that for a query x strictly inside B,
//   fl|x−q_j|² < fl|x−q_k|² for every k in S_j   ⇒   j is the unique floating-point argmin of fl|x−q|² over the cloud,
// i.e. exactly what KdTree.nearest returns (its hint only ever breaks exact ties). The objective uses this as a cell
// test plus a greedy walk over neighbouring cells before falling back to the KD search.
//
// Construction (per point j, in KD-tree positions): start from B, clip by the K nearest neighbours' bisector
// half-spaces shifted OUTWARD by δ (so the computed polytope C contains the true clipped cell, rounding included);
// then for each vertex v collect every point inside the ball (v, r_v·(1+1e-9) + BALL_GAP·D²/(2r_v)), r_v = |v−j|,
// and clip by each (a crowded ball first clips by v's nearest point, which is cheaper). Stop when every vertex of C
// has had its ball collected with nothing left to clip. S_j := ∪ of those balls over the final vertices.
//
// Why S_j is enough (x strictly inside B, D = cloud bbox diagonal; B's diagonal is ≤ 4.46·D, so every squared
// distance is ≤ 19.9·D² and each fl|·|² is within ~5u·19.9·D² ≈ 1.1e-14·D² of the real value):
//  • DUP_TOL·D = 1e-6·D bounds j's nearest-neighbour distance from below (closer pairs get no cell), so |k−j| ≥ 1e-6·D;
//  • a point m ∉ S_j is outside every final ball, so g_m(v) = |v−m|² − |v−j|² ≥ BALL_GAP·D² = 1e-8·D² at every
//    vertex; g_m is affine, so g_m ≥ 1e-8·D² − (rounding) on the hull of the vertices. The rounding term is
//    2|m−j|·e where e is how far the computed vertices are from the exact ones: ~1e-15·D for well-conditioned
//    vertices, more where bisector planes meet at a shallow angle θ (≈1e-15·D/θ); the gap covers e up to ~1e-9·D,
//    i.e. angles down to ~1e-6 rad. (Measured: every golden start bit-identical, and brute force over 240 000
//    adversarial queries a hair either side of bisectors found no wrong answer; see test/unit/scoring/cells.test.ts.)
//  • a query passing the float test for all k ∈ S_j has g_k(x) > −2.2e-14·D², i.e. it lies at most
//    1.1e-14·D²/|k−j| ≤ 1.1e-8·D beyond k's bisector, less than the shift δ = CELL_SHIFT·D = 1e-7·D; every face of C
//    belongs to B or to some k ∈ S_j (a vertex on k's shifted plane is strictly closer to k than to j, so k is in
//    that vertex's ball), hence x ∈ C and fl|x−q_m|² − fl|x−q_j|² ≥ 1e-8·D² − 2.2e-14·D² > 0 for every m ∉ S_j.
//  • the second-nearest point of x is in S_j as well (it is a Delaunay neighbour of the nearest), so the smallest
//    distance over S_j is the radius the objective's certificate needs.
// Any inconsistency of the floating-point clipping (non-convex face, open cap, vertex overflow) gives "no cell", so
// a failure costs speed, never exactness; queries outside B, exact ties and cell-less points use the KD search.
import type { KdTree, KdTreeArrays } from './kd-tree.ts'

/** Outward shift of every bisector plane, relative to D. */
export const CELL_SHIFT = 1e-7
/**
 * Every point outside a verification ball has |v−m|² − |v−j|² ≥ BALL_GAP·D² (radius r_v + BALL_GAP·D²/(2·r_v)).
 * Generous on purpose: it absorbs vertex rounding (see above) and widens a typical ball by well under 1 %.
 */
export const BALL_GAP = 1e-8
/** Points with a neighbour closer than this (relative to D) get no cell. */
export const DUP_TOL = 1e-6
/** B = cloud bbox expanded by this × D on every side. */
export const BOX_EXPAND = 1
/** Nearest neighbours clipped first. */
const INITIAL_K = 16
/** A verification ball with more points than this is shaped by a nearest-point clip first. */
const RANGE_CAP = 32
const VERTEX_CAP = 1 << 14

export interface VoronoiCells {
  size: number
  /** S_j of tree position j is nbr[start[j] .. start[j+1]) (tree positions); empty with noCell[j] = 1 when unusable. */
  start: Int32Array
  nbr: Int32Array
  /** Coordinates of nbr entries, interleaved xyz, so the cell test reads one contiguous run. */
  nbrXyz: Float64Array
  noCell: Uint8Array
  /** B: xyz min, xyz max. A query must lie strictly inside. */
  box: Float64Array
}

/** Exact k nearest (excluding `self`), ascending, over a KD-tree's arrays. Returns the count found. */
function knn(a: KdTreeArrays, qx: number, qy: number, qz: number, self: number, k: number, outIdx: Int32Array, outD: Float64Array, stack: Int32Array): number {
  let count = 0
  let worst = Infinity
  let top = 0
  stack[top++] = 0
  while (top > 0) {
    const node = stack[--top]!
    const b = 6 * node
    const bd = boxDist2(a.boxes, b, qx, qy, qz)
    if (bd >= worst) continue
    if (node >= a.firstLeaf) {
      for (let i = a.nodeStart[node]!; i < a.nodeEnd[node]!; i++) {
        if (i === self) continue
        const dx = qx - a.xs[i]!, dy = qy - a.ys[i]!, dz = qz - a.zs[i]!
        const d = dx * dx + dy * dy + dz * dz
        if (count < k || d < worst) {
          let p = count < k ? count++ : k - 1
          while (p > 0 && outD[p - 1]! > d) { outD[p] = outD[p - 1]!; outIdx[p] = outIdx[p - 1]!; p-- }
          outD[p] = d; outIdx[p] = i
          if (count === k) worst = outD[k - 1]!
        }
      }
      continue
    }
    // Nearer child on top of the stack.
    const axis = a.splitAxis[node]!
    const q = axis === 0 ? qx : axis === 1 ? qy : qz
    if (q <= a.splitValue[node]!) { stack[top++] = 2 * node + 2; stack[top++] = 2 * node + 1 }
    else { stack[top++] = 2 * node + 1; stack[top++] = 2 * node + 2 }
  }
  return count
}

function boxDist2(boxes: Float64Array, b: number, qx: number, qy: number, qz: number): number {
  let d = 0, e = 0
  e = boxes[b]! - qx; if (e > 0) d += e * e
  e = qx - boxes[b + 3]!; if (e > 0) d += e * e
  e = boxes[b + 1]! - qy; if (e > 0) d += e * e
  e = qy - boxes[b + 4]!; if (e > 0) d += e * e
  e = boxes[b + 2]! - qz; if (e > 0) d += e * e
  e = qz - boxes[b + 5]!; if (e > 0) d += e * e
  return d
}

/** Every tree position i ≠ self with fl|q − p_i|² ≤ r2, appended to `out`; false (incomplete) once more than `cap`. */
function range(a: KdTreeArrays, qx: number, qy: number, qz: number, r2: number, self: number, out: number[], stack: Int32Array, cap: number): boolean {
  const boxes = a.boxes, xs = a.xs, ys = a.ys, zs = a.zs, nodeStart = a.nodeStart, nodeEnd = a.nodeEnd, firstLeaf = a.firstLeaf
  let top = 0
  stack[top++] = 0
  while (top > 0) {
    const node = stack[--top]!
    // boxDist2 with an early exit once it exceeds r2 (same sum order, so the same float decision at the end).
    const b = 6 * node
    let d = 0, e = 0
    e = boxes[b]! - qx; if (e > 0) d += e * e
    e = qx - boxes[b + 3]!; if (e > 0) d += e * e
    e = boxes[b + 1]! - qy; if (e > 0) d += e * e
    e = qy - boxes[b + 4]!; if (e > 0) d += e * e
    if (d > r2) continue
    e = boxes[b + 2]! - qz; if (e > 0) d += e * e
    e = qz - boxes[b + 5]!; if (e > 0) d += e * e
    if (d > r2) continue
    if (node >= firstLeaf) {
      const end = nodeEnd[node]!
      for (let i = nodeStart[node]!; i < end; i++) {
        const dx = qx - xs[i]!, dy = qy - ys[i]!, dz = qz - zs[i]!
        if (dx * dx + dy * dy + dz * dz <= r2 && i !== self && out.push(i) > cap) return false
      }
      continue
    }
    stack[top++] = 2 * node + 1
    stack[top++] = 2 * node + 2
  }
  return true
}

/** A convex polytope as faces (CCW seen from outside) over a shared vertex table; half-space clipping. */
class Polytope {
  readonly vx = new Float64Array(VERTEX_CAP)
  readonly vy = new Float64Array(VERTEX_CAP)
  readonly vz = new Float64Array(VERTEX_CAP)
  readonly vs = new Float64Array(VERTEX_CAP)
  /** 0 = new, 1 = nearest-point checked, 2 = ball verified. */
  readonly state = new Uint8Array(VERTEX_CAP)
  readonly found: (number[] | null)[] = new Array(VERTEX_CAP).fill(null)
  readonly capNext = new Int32Array(VERTEX_CAP)
  nv = 0
  alive: number[] = []
  faces: number[][] = []

  resetBox(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): void {
    this.nv = 8
    for (let id = 0; id < 8; id++) {
      this.vx[id] = id & 1 ? x1 : x0
      this.vy[id] = id & 2 ? y1 : y0
      this.vz[id] = id & 4 ? z1 : z0
      this.state[id] = 0
      this.found[id] = null
      this.vs[id] = 0
    }
    this.alive = [0, 1, 2, 3, 4, 5, 6, 7]
    this.faces = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]]
  }

  private readonly edgeIn: number[] = []
  private readonly edgeOut: number[] = []
  private readonly edgeNew: number[] = []

  /** The vertex where edge (u in, w out) meets the current clip plane (one per edge and clip). −1 on overflow. */
  private edgeVertex(u: number, w: number): number {
    const { edgeIn, edgeOut, edgeNew, vx, vy, vz, vs } = this
    for (let e = 0; e < edgeIn.length; e++) if (edgeIn[e] === u && edgeOut[e] === w) return edgeNew[e]!
    if (this.nv >= VERTEX_CAP) return -1
    const su = vs[u]!, sw = vs[w]!
    const t = su / (su - sw)
    const id = this.nv++
    vx[id] = vx[u]! + t * (vx[w]! - vx[u]!)
    vy[id] = vy[u]! + t * (vy[w]! - vy[u]!)
    vz[id] = vz[u]! + t * (vz[w]! - vz[u]!)
    this.state[id] = 0
    this.found[id] = null
    this.capNext[id] = -1
    vs[id] = 0
    edgeIn.push(u); edgeOut.push(w); edgeNew.push(id)
    return id
  }

  /** Keeps {x : n·x ≤ c}. Returns 0 (nothing cut), 1 (cut), −1 (inconsistent / empty / overflow). */
  clip(nx: number, ny: number, nz: number, c: number): number {
    const { vx, vy, vz, vs } = this
    let anyOut = false, anyIn = false
    for (const v of this.alive) {
      const s = nx * vx[v]! + ny * vy[v]! + nz * vz[v]! - c
      vs[v] = s
      if (s > 0) anyOut = true
      else anyIn = true
    }
    if (!anyOut) return 0
    if (!anyIn) return -1
    const edgeIn = this.edgeIn, edgeOut = this.edgeOut, edgeNew = this.edgeNew
    edgeIn.length = 0; edgeOut.length = 0; edgeNew.length = 0
    const faces: number[][] = []
    for (let f = 0; f < this.faces.length; f++) {
      const poly = this.faces[f]!
      const L = poly.length
      let outs = 0, down = -1, up = -1, downs = 0
      for (let i = 0; i < L; i++) {
        const here = vs[poly[i]!]! > 0, next = vs[poly[(i + 1) % L]!]! > 0
        if (here) outs++
        if (!here && next) { down = i; downs++ }
        if (here && !next) up = i
      }
      if (outs === 0) { faces.push(poly); continue }
      if (outs === L) continue
      if (downs !== 1) return -1
      const a = this.edgeVertex(poly[down]!, poly[(down + 1) % L]!)
      const b = this.edgeVertex(poly[(up + 1) % L]!, poly[up]!)
      if (a < 0 || b < 0) return -1
      const np: number[] = []
      for (let i = (up + 1) % L; ; i = (i + 1) % L) {
        np.push(poly[i]!)
        if (i === down) break
      }
      np.push(a, b)
      if (this.capNext[b] !== -1) return -1
      this.capNext[b] = a
      faces.push(np)
    }
    const cap: number[] = []
    const first = edgeNew[0]!
    for (let v = first; ; ) {
      cap.push(v)
      const n = this.capNext[v]!
      if (n < 0 || cap.length > edgeNew.length) return -1
      if (n === first) break
      v = n
    }
    if (cap.length !== edgeNew.length || cap.length < 3) return -1
    faces.push(cap)
    this.faces = faces
    const alive: number[] = []
    for (const v of this.alive) if (vs[v]! <= 0) alive.push(v)
    for (const v of edgeNew) alive.push(v)
    this.alive = alive
    return 1
  }
}

/** B for a tree: its bbox expanded by BOX_EXPAND·D; also D. A pure function of the tree's points. */
export function cellBox(tree: KdTree): { box: Float64Array; D: number } {
  const a = tree.arrays()
  const n = a.size
  const xs = a.xs, ys = a.ys, zs = a.zs
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity
  for (let i = 0; i < n; i++) {
    x0 = Math.min(x0, xs[i]!); x1 = Math.max(x1, xs[i]!)
    y0 = Math.min(y0, ys[i]!); y1 = Math.max(y1, ys[i]!)
    z0 = Math.min(z0, zs[i]!); z1 = Math.max(z1, zs[i]!)
  }
  const D = Math.hypot(x1 - x0, y1 - y0, z1 - z0)
  const box = new Float64Array([x0 - BOX_EXPAND * D, y0 - BOX_EXPAND * D, z0 - BOX_EXPAND * D, x1 + BOX_EXPAND * D, y1 + BOX_EXPAND * D, z1 + BOX_EXPAND * D])
  return { box, D }
}

/** The float parameters of the construction, each derived once from the tree (the WebAssembly builder receives them). */
export interface CellParameters {
  /** B: xyz min, xyz max. */
  box: Float64Array
  /** Diagonal of the cloud's bounding box. */
  D: number
  /** δ, the outward shift of every bisector plane. */
  shift: number
  /** BALL_GAP·D²/2: a ball of radius r_v widens by halfGap/r_v. */
  halfGap: number
  /** (DUP_TOL·D)²: a nearest neighbour closer than this means no cell. */
  dup2: number
}

/** The parameters CellBuilder uses for `tree`. */
export function cellParameters(tree: KdTree): CellParameters {
  const { box, D } = cellBox(tree)
  return { box, D, shift: CELL_SHIFT * D, halfGap: 0.5 * BALL_GAP * D * D, dup2: (DUP_TOL * D) ** 2 }
}

/**
 * Builds S_j one point at a time; the result for j depends only on the tree and j (all scratch is keyed by j or reset
 * per point), so any split of the points over threads gives the same cells.
 */
export class CellBuilder implements CellRangeBuilder {
  private readonly a: KdTreeArrays
  private readonly box: Float64Array
  private readonly shift: number
  private readonly halfGap: number
  private readonly dup2: number
  private readonly poly = new Polytope()
  private readonly stack = new Int32Array(4096)
  private readonly kIdx = new Int32Array(INITIAL_K)
  private readonly kD = new Float64Array(INITIAL_K)
  private readonly sortD: Float64Array
  private readonly processed: Int32Array
  private readonly inSet: Int32Array

  private readonly tree: KdTree

  constructor(tree: KdTree) {
    this.tree = tree
    this.a = tree.arrays()
    const n = this.a.size
    const { box, shift, halfGap, dup2 } = cellParameters(tree)
    this.box = box
    this.shift = shift
    this.halfGap = halfGap
    this.dup2 = dup2
    this.sortD = new Float64Array(n + 1)
    this.processed = new Int32Array(n).fill(-1)
    this.inSet = new Int32Array(n).fill(-1)
  }

  /** Clips j's polytope by m's bisector shifted outward by δ. */
  private cut(m: number, j: number): number {
    const { xs, ys, zs } = this.a
    this.processed[m] = j
    const px = xs[j]!, py = ys[j]!, pz = zs[j]!
    const nx = xs[m]! - px, ny = ys[m]! - py, nz = zs[m]! - pz
    const mx = 0.5 * (xs[m]! + px), my = 0.5 * (ys[m]! + py), mz = 0.5 * (zs[m]! + pz)
    const c = nx * mx + ny * my + nz * mz + this.shift * Math.sqrt(nx * nx + ny * ny + nz * nz)
    return this.poly.clip(nx, ny, nz, c)
  }

  /** S_j (tree positions, in discovery order), or null when j gets no cell. */
  build(j: number): number[] | null {
    const { a, tree, box, shift, halfGap, dup2, poly, stack, kIdx, kD, sortD, processed, inSet } = this
    const n = a.size
    const xs = a.xs, ys = a.ys, zs = a.zs
    const px = xs[j]!, py = ys[j]!, pz = zs[j]!
    let ok = n > 1
    const got = n > 1 ? knn(a, px, py, pz, j, INITIAL_K, kIdx, kD, stack) : 0
    if (got === 0 || kD[0]! < dup2) ok = false
    if (ok) {
      poly.resetBox(box[0]!, box[1]!, box[2]!, box[3]!, box[4]!, box[5]!)
      for (let e = 0; e < got && ok; e++) if (this.cut(kIdx[e]!, j) < 0) ok = false
    }
    // Every vertex: collect its ball (capped); a crowded ball means the vertex is far from final, so clip by the
    // vertex's nearest point first (cheap shaping) and retry; otherwise clip by every new point of the ball.
    while (ok) {
      let pending = false
      for (const v of poly.alive.slice()) {
        if (poly.state[v] !== 0 || poly.vs[v]! > 0) continue
        pending = true
        const vx = poly.vx[v]!, vy = poly.vy[v]!, vz = poly.vz[v]!
        const dx = vx - px, dy = vy - py, dz = vz - pz
        const rv2 = dx * dx + dy * dy + dz * dz
        const rv = Math.sqrt(rv2)
        const R = rv * (1 + 1e-9) + halfGap / rv
        const list: number[] = []
        if (!range(a, vx, vy, vz, R * R, j, list, stack, RANGE_CAP)) {
          const m = tree.nearest(vx, vy, vz, j)
          if (m !== j && processed[m] !== j && tree.distSq < rv2) {
            const r = this.cut(m, j)
            if (r < 0) { ok = false; break }
            if (r > 0) continue
          }
          list.length = 0
          range(a, vx, vy, vz, R * R, j, list, stack, Infinity)
        }
        poly.state[v] = 2
        poly.found[v] = list
        // Nearest to v first (insertion sort; lists are short).
        if (list.length > 0) { const m = list[0]!, ex = vx - xs[m]!, ey = vy - ys[m]!, ez = vz - zs[m]!; sortD[0] = ex * ex + ey * ey + ez * ez }
        for (let e = 1; e < list.length; e++) {
          const m = list[e]!
          const ex = vx - xs[m]!, ey = vy - ys[m]!, ez = vz - zs[m]!
          const dm = ex * ex + ey * ey + ez * ez
          let f = e
          while (f > 0 && sortD[f - 1]! > dm) { list[f] = list[f - 1]!; sortD[f] = sortD[f - 1]!; f-- }
          list[f] = m; sortD[f] = dm
        }
        for (const m of list) {
          if (processed[m] === j) continue
          const r = this.cut(m, j)
          if (r < 0) { ok = false; break }
        }
        if (!ok) break
      }
      if (!pending) break
    }
    if (!ok) return null
    const set: number[] = []
    for (const v of poly.alive) {
      const list = poly.found[v]
      if (list === null || list === undefined) return null
      for (const m of list) if (inSet[m] !== j) { inSet[m] = j; set.push(m) }
    }
    return set
  }

  /** S_j for points [lo, hi): counts[k] = |S_{lo+k}| or −1 for no cell; nbr = the lists concatenated. */
  buildRange(lo: number, hi: number): CellRange {
    const counts = new Int32Array(hi - lo)
    const lists: number[] = []
    for (let j = lo; j < hi; j++) {
      const set = this.build(j)
      counts[j - lo] = set === null ? -1 : set.length
      if (set !== null) for (const m of set) lists.push(m)
    }
    return { counts, nbr: Int32Array.from(lists) }
  }
}

/** The cells of points [lo, hi) of one cloud: |S_j| per point (−1 = no cell) and the lists S_j concatenated. */
export interface CellRange {
  counts: Int32Array
  nbr: Int32Array
}

/** Anything that builds cells of a tree by point range: CellBuilder here, WasmCellBuilder (cells-wasm.ts). */
export interface CellRangeBuilder {
  buildRange(lo: number, hi: number): CellRange
}

/** Builds S_j for every point of `tree` (tree positions), with the JS builder unless another is given. */
export function buildVoronoiCells(tree: KdTree, builder: CellRangeBuilder = new CellBuilder(tree)): VoronoiCells {
  const n = tree.size
  const { counts, nbr } = builder.buildRange(0, n)
  const start = new Int32Array(n + 1)
  const noCell = new Uint8Array(n)
  let at = 0
  for (let j = 0; j < n; j++) {
    start[j] = at
    if (counts[j]! < 0) noCell[j] = 1
    else at += counts[j]!
  }
  start[n] = at
  return cellsFromArrays(tree, start, nbr, noCell)
}

/** The VoronoiCells of `tree` from its CSR neighbour sets (e.g. built by several threads): adds B and nbrXyz. */
export function cellsFromArrays(tree: KdTree, start: Int32Array, nbr: Int32Array, noCell: Uint8Array): VoronoiCells {
  const a = tree.arrays()
  const xs = a.xs, ys = a.ys, zs = a.zs
  const total = start[a.size]!
  const nbrXyz = new Float64Array(3 * total)
  for (let e = 0; e < total; e++) {
    const m = nbr[e]!
    nbrXyz[3 * e] = xs[m]!; nbrXyz[3 * e + 1] = ys[m]!; nbrXyz[3 * e + 2] = zs[m]!
  }
  return { size: a.size, start, nbr, nbrXyz, noCell, box: cellBox(tree).box }
}
