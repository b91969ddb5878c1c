// AssemblyScript source of the Voronoi cell kernel (scoring.md §12a): S_j for one point j of a static KD-tree, the
// same neighbour set, in the same order, with the same "no cell" decisions as CellBuilder.build(j) in ../../cells.ts.
// Compiled to WebAssembly by `npm run build:wasm`; `../../cells-wasm.ts` lays the tree out in memory and calls `build`.
//
// This is a line-for-line port of knn, range, Polytope (clip, edgeVertex), CellBuilder.cut/build in cells.ts (with
// KdTree.nearest of kd-tree.ts from ./kd-search.ts, shared with the ICP kernel): every floating-point expression keeps
// the same operands in the same order, so both give the same bits. WebAssembly has no fused multiply-add and rounds
// like JS doubles, so nothing here may be reassociated.
// The parameters JS derives with Math.hypot or ** (B, δ, halfGap, dup²) are computed by the host and passed in.
//
// Differences from the JS objects, none of which changes a result:
//  • JS keys `processed` and `inSet` by j; here by a stamp that grows with every build, so rebuilding a point (or
//    building ranges in any order) gives the result of a fresh CellBuilder, which is what buildVoronoiCells does.
//  • JS grows arrays without bound where the kernel has fixed tables. VERTEX_CAP is JS's own cap. The face table can
//    never overflow (every successful clip creates ≥ 3 of the ≤ VERTEX_CAP vertices and adds one face). The face
//    entry buffers (FACE_ENTRY_CAP, 5× a simple polytope at the vertex cap) and memory growth for the per-vertex
//    ball lists are the only new limits; hitting one gives "no cell" (a speed cost, never an exactness one).
//  • range searches from j's leaf upwards and build() restores JS's order of equal distances (see range below).

import {
  boxOf, boxDistSq, f64At, firstLeaf, foundDistSq, i32At, leafOf, nearest, nodeEnd, nodeStart, parentOf, setF64,
  setI32, siblingGap, siblingOf, splitAxis, splitValue, treeSize, useNearestStack, useTree, xs, ys, zs,
} from './kd-search'

// Header (i32 words at the address given to `configure`), written by the host: the 12 words of kd-search.ts (size,
// first leaf, the search arrays' addresses), then the kernel's own arrays.
/** n i32: stamp of the last build that cut by point m. */
const H_PROCESSED = 48
/** n i32: stamp of the last build that put m in its set. */
const H_IN_SET = 52
/** n + 1 f64: insertion-sort keys. */
const H_SORT_D = 56
/** n i32: the set of the last build. */
const H_OUT = 60
/** SCRATCH_BYTES of kernel scratch (laid out below). */
const H_SCRATCH = 64
/** Start of the ball-list pool, which runs to the end of memory and grows with it. */
const H_POOL = 68

/** Nearest neighbours clipped first; INITIAL_K in cells.ts. */
const INITIAL_K: i32 = 16
/** A verification ball with more points than this is shaped by a nearest-point clip first; RANGE_CAP in cells.ts. */
const RANGE_CAP: i32 = 32
/** VERTEX_CAP in cells.ts. */
const VERTEX_CAP: i32 = 1 << 14
/** ≥ 6 + (VERTEX_CAP − 8) / 3, the most faces a polytope can have (see the header). */
const FACE_CAP: i32 = 1 << 13
/** Vertex ids over all faces of one polytope; a simple polytope has 3 per vertex. */
const FACE_ENTRY_CAP: i32 = 1 << 18
/** The knn / range stack; the same size as CellBuilder's (depth never exceeds levels + 2). */
const STACK_CAP: i32 = 4096
/** KdTree.nearest's stack takes 2·levels + 4 entries. */
const NEAREST_STACK_CAP: i32 = 256
/** The ball radius factor of cells.ts (an exactly rounded sum, the same double in both). */
const BALL_SCALE: f64 = 1 + 1e-9
const PAGE: usize = 65536

// Scratch layout (byte offsets from the scratch base).
const S_VX: usize = 0
const S_VY: usize = S_VX + <usize>VERTEX_CAP * 8
const S_VZ: usize = S_VY + <usize>VERTEX_CAP * 8
const S_VS: usize = S_VZ + <usize>VERTEX_CAP * 8
const S_CAP_NEXT: usize = S_VS + <usize>VERTEX_CAP * 8
const S_FOUND_START: usize = S_CAP_NEXT + <usize>VERTEX_CAP * 4
const S_FOUND_LEN: usize = S_FOUND_START + <usize>VERTEX_CAP * 4
const S_ALIVE: usize = S_FOUND_LEN + <usize>VERTEX_CAP * 4
const S_SNAPSHOT: usize = S_ALIVE + <usize>VERTEX_CAP * 4
const S_EDGE_IN: usize = S_SNAPSHOT + <usize>VERTEX_CAP * 4
const S_EDGE_OUT: usize = S_EDGE_IN + <usize>VERTEX_CAP * 4
const S_EDGE_NEW: usize = S_EDGE_OUT + <usize>VERTEX_CAP * 4
const S_FACE_START: usize = S_EDGE_NEW + <usize>VERTEX_CAP * 4
const S_FACE_LEN: usize = S_FACE_START + <usize>FACE_CAP * 4 * 2
const S_FACE_ENTRIES: usize = S_FACE_LEN + <usize>FACE_CAP * 4 * 2
const S_K_IDX: usize = S_FACE_ENTRIES + <usize>FACE_ENTRY_CAP * 4 * 2
const S_K_D: usize = S_K_IDX + <usize>INITIAL_K * 4
const S_STACK: usize = S_K_D + <usize>INITIAL_K * 8
const S_NEAREST_STACK: usize = S_STACK + <usize>STACK_CAP * 4
const S_NEAREST_DIST: usize = S_NEAREST_STACK + <usize>NEAREST_STACK_CAP * 4
const S_STATE: usize = S_NEAREST_DIST + <usize>NEAREST_STACK_CAP * 8
const S_END: usize = (S_STATE + <usize>VERTEX_CAP + 7) & ~<usize>7

/** Bytes of scratch the host must reserve at the header's scratch address. */
export function scratchBytes(): i32 {
  return <i32>S_END
}

// The construction's arrays and parameters, unpacked by `configure` (the tree's: useTree in kd-search.ts).
let processed: usize = 0
let inSet: usize = 0
let sortD: usize = 0
let out: usize = 0
let poolBase: usize = 0
let boxX0: f64 = 0
let boxY0: f64 = 0
let boxZ0: f64 = 0
let boxX1: f64 = 0
let boxY1: f64 = 0
let boxZ1: f64 = 0
let shift: f64 = 0
let halfGap: f64 = 0
let dup2: f64 = 0

// Scratch addresses.
let vxs: usize = 0
let vys: usize = 0
let vzs: usize = 0
let vss: usize = 0
let capNext: usize = 0
let foundStart: usize = 0
let foundLen: usize = 0
let alive: usize = 0
let snapshot: usize = 0
let edgeIn: usize = 0
let edgeOut: usize = 0
let edgeNew: usize = 0
let faceStartBuf: usize = 0
let faceLenBuf: usize = 0
let faceEntryBuf: usize = 0
let kIdx: usize = 0
let kD: usize = 0
let stack: usize = 0
let state: usize = 0

// Per-build state.
let stamp: i32 = 0
let nv: i32 = 0
let aliveCount: i32 = 0
let edgeCount: i32 = 0
let faceCount: i32 = 0
/** Which of the two face buffers holds the current faces (0 or 1). */
let faceSide: i32 = 0
/** Next free byte of the ball-list pool, and the end of memory. */
let poolTop: usize = 0
let memoryEnd: usize = 0

/** Reads the header at `header` and takes B, δ, halfGap and dup² (from cellParameters in cells.ts). */
export function configure(header: usize, x0: f64, y0: f64, z0: f64, x1: f64, y1: f64, z1: f64, shiftIn: f64, halfGapIn: f64, dup2In: f64): void {
  useTree(header)
  processed = load<u32>(header + H_PROCESSED)
  inSet = load<u32>(header + H_IN_SET)
  sortD = load<u32>(header + H_SORT_D)
  out = load<u32>(header + H_OUT)
  const scratch = <usize>load<u32>(header + H_SCRATCH)
  poolBase = load<u32>(header + H_POOL)
  memoryEnd = <usize>memory.size() * PAGE
  boxX0 = x0; boxY0 = y0; boxZ0 = z0; boxX1 = x1; boxY1 = y1; boxZ1 = z1
  shift = shiftIn
  halfGap = halfGapIn
  dup2 = dup2In
  vxs = scratch + S_VX
  vys = scratch + S_VY
  vzs = scratch + S_VZ
  vss = scratch + S_VS
  capNext = scratch + S_CAP_NEXT
  foundStart = scratch + S_FOUND_START
  foundLen = scratch + S_FOUND_LEN
  alive = scratch + S_ALIVE
  snapshot = scratch + S_SNAPSHOT
  edgeIn = scratch + S_EDGE_IN
  edgeOut = scratch + S_EDGE_OUT
  edgeNew = scratch + S_EDGE_NEW
  faceStartBuf = scratch + S_FACE_START
  faceLenBuf = scratch + S_FACE_LEN
  faceEntryBuf = scratch + S_FACE_ENTRIES
  kIdx = scratch + S_K_IDX
  kD = scratch + S_K_D
  stack = scratch + S_STACK
  useNearestStack(scratch + S_NEAREST_STACK, scratch + S_NEAREST_DIST)
  state = scratch + S_STATE
}

/** Grows memory so that at least `bytes` more are available past `at`; false when the engine refuses. */
function reserve(at: usize, bytes: usize): bool {
  if (at + bytes <= memoryEnd) return true
  const have = <usize>memory.size()
  const need = (at + bytes + PAGE - 1) / PAGE
  // Grow at least by half again, so a build with big balls grows memory a few times, not once per list.
  let pages = need - have
  if (pages < have >> 1) pages = have >> 1
  if (memory.grow(<i32>pages) < 0 && memory.grow(<i32>(need - have)) < 0) return false
  memoryEnd = <usize>memory.size() * PAGE
  return true
}

/** Squared distance from q to a box, boxDist2 in cells.ts (both sides of each axis tested, summed x, y, z). */
// @ts-ignore: decorator
@inline function boxDist2(b: usize, qx: f64, qy: f64, qz: f64): f64 {
  let d: f64 = 0
  let e: f64 = 0
  e = load<f64>(b) - qx; if (e > 0) d += e * e
  e = qx - load<f64>(b, 24); if (e > 0) d += e * e
  e = load<f64>(b, 8) - qy; if (e > 0) d += e * e
  e = qy - load<f64>(b, 32); if (e > 0) d += e * e
  e = load<f64>(b, 16) - qz; if (e > 0) d += e * e
  e = qz - load<f64>(b, 40); if (e > 0) d += e * e
  return d
}

/** knn in cells.ts: the k nearest tree positions to q except `self`, ascending, into kIdx/kD; returns the count. */
function knn(qx: f64, qy: f64, qz: f64, self: i32, k: i32): i32 {
  let count: i32 = 0
  let worst: f64 = Infinity
  let top: i32 = 0
  setI32(stack, top++, 0)
  while (top > 0) {
    const node = i32At(stack, --top)
    const bd = boxDist2(boxOf(node), qx, qy, qz)
    if (bd >= worst) continue
    if (node >= firstLeaf) {
      const end = i32At(nodeEnd, node)
      for (let i = i32At(nodeStart, node); i < end; i++) {
        if (i == self) continue
        const dx = qx - f64At(xs, i), dy = qy - f64At(ys, i), dz = qz - f64At(zs, i)
        const d = dx * dx + dy * dy + dz * dz
        if (count < k || d < worst) {
          let p = count < k ? count++ : k - 1
          while (p > 0 && f64At(kD, p - 1) > d) { setF64(kD, p, f64At(kD, p - 1)); setI32(kIdx, p, i32At(kIdx, p - 1)); p-- }
          setF64(kD, p, d); setI32(kIdx, p, i)
          if (count == k) worst = f64At(kD, k - 1)
        }
      }
      continue
    }
    // Nearer child on top of the stack.
    const axis = load<u8>(splitAxis + <usize>node)
    const q = axis == 0 ? qx : axis == 1 ? qy : qz
    if (q <= f64At(splitValue, node)) { setI32(stack, top++, 2 * node + 2); setI32(stack, top++, 2 * node + 1) }
    else { setI32(stack, top++, 2 * node + 1); setI32(stack, top++, 2 * node + 2) }
  }
  return count
}

// range in cells.ts, reorganised for speed without changing its result. Its box pruning is conservative (a box's
// float distance never exceeds that of a point inside), so the points it finds are exactly {i ≠ self : fl|q − p_i|² ≤ r2}
// whatever the traversal; only their order depends on it. JS pushes the left child, then the right, so it meets the
// leaves right to left (a complete tree: leaf node ids grow left to right), each leaf's positions in ascending order.
// Here the search starts at self's leaf (every vertex ball contains self) and climbs, so the ball's far side of the
// tree costs one split-plane test per level instead of a descent from the root; build() then sorts each list by
// (distance, leaf descending, position ascending), which is where JS's stable sort by distance puts them.

/** Every i ≠ self in the subtree at `root` with fl|q − p_i|² ≤ r2, appended from `list` + count; the new count or < 0. */
function rangeSubtree(root: i32, qx: f64, qy: f64, qz: f64, r2: f64, self: i32, list: usize, count: i32, cap: i32): i32 {
  let top: i32 = 0
  setI32(stack, top++, root)
  while (top > 0) {
    const node = i32At(stack, --top)
    // boxDist2 with an early exit once it exceeds r2 (as in cells.ts).
    const b = boxOf(node)
    let d: f64 = 0
    let e: f64 = 0
    e = load<f64>(b) - qx; if (e > 0) d += e * e
    e = qx - load<f64>(b, 24); if (e > 0) d += e * e
    e = load<f64>(b, 8) - qy; if (e > 0) d += e * e
    e = qy - load<f64>(b, 32); if (e > 0) d += e * e
    if (d > r2) continue
    e = load<f64>(b, 16) - qz; if (e > 0) d += e * e
    e = qz - load<f64>(b, 40); if (e > 0) d += e * e
    if (d > r2) continue
    if (node >= firstLeaf) {
      const end = i32At(nodeEnd, node)
      for (let i = i32At(nodeStart, node); i < end; i++) {
        const dx = qx - f64At(xs, i), dy = qy - f64At(ys, i), dz = qz - f64At(zs, i)
        if (dx * dx + dy * dy + dz * dz <= r2 && i != self) {
          const at = list + (<usize>count << 2)
          if (at + 4 > memoryEnd && !reserve(at, 4096)) return -2
          store<i32>(at, i)
          if (++count > cap) return -1
        }
      }
      continue
    }
    setI32(stack, top++, 2 * node + 1)
    setI32(stack, top++, 2 * node + 2)
  }
  return count
}

/**
 * The set of range in cells.ts (in no particular order): every tree position i ≠ self with fl|q − p_i|² ≤ r2, written
 * from `list` on; returns the count, −1 (incomplete) once more than `cap`, −2 when memory for the list cannot be had.
 */
function range(qx: f64, qy: f64, qz: f64, r2: f64, self: i32, list: usize, cap: i32): i32 {
  let node = i32At(leafOf, self)
  let count = rangeSubtree(node, qx, qy, qz, r2, self, list, 0, cap)
  while (node != 0 && count >= 0) {
    // The sibling's points lie beyond the parent's split plane; skip it when the plane is farther than r2 (the
    // squared gap rounds no higher than any of their squared distances), else search it.
    const parent = parentOf(node)
    const gap = siblingGap(node, parent, qx, qy, qz)
    if (!(gap > 0 && gap * gap > r2)) count = rangeSubtree(siblingOf(node), qx, qy, qz, r2, self, list, count, cap)
    node = parent
  }
  return count
}

/** Whether JS's range meets position a after position m (in leaf `leafM`): leaves right to left, positions ascending. */
// @ts-ignore: decorator
@inline function discoveredAfter(a: i32, m: i32, leafM: i32): bool {
  const leafA = i32At(leafOf, a)
  return leafA < leafM || (leafA == leafM && a > m)
}

// ---- Polytope: faces (CCW seen from outside) as vertex-id runs in one of two buffers, over a shared vertex table.

// @ts-ignore: decorator
@inline function faceStarts(side: i32): usize { return faceStartBuf + <usize>side * <usize>FACE_CAP * 4 }
// @ts-ignore: decorator
@inline function faceLens(side: i32): usize { return faceLenBuf + <usize>side * <usize>FACE_CAP * 4 }
// @ts-ignore: decorator
@inline function faceEntries(side: i32): usize { return faceEntryBuf + <usize>side * <usize>FACE_ENTRY_CAP * 4 }

/** Polytope.resetBox: B with vertices 0..7 (bit 0 → x1, bit 1 → y1, bit 2 → z1) and its six faces. */
function resetBox(): void {
  nv = 8
  for (let id: i32 = 0; id < 8; id++) {
    setF64(vxs, id, id & 1 ? boxX1 : boxX0)
    setF64(vys, id, id & 2 ? boxY1 : boxY0)
    setF64(vzs, id, id & 4 ? boxZ1 : boxZ0)
    store<u8>(state + <usize>id, 0)
    setI32(foundLen, id, -1)
    setF64(vss, id, 0)
    setI32(alive, id, id)
  }
  aliveCount = 8
  faceSide = 0
  faceCount = 6
  const starts = faceStarts(0), lens = faceLens(0), entries = faceEntries(0)
  // [0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]
  setI32(entries, 0, 0); setI32(entries, 1, 4); setI32(entries, 2, 6); setI32(entries, 3, 2)
  setI32(entries, 4, 1); setI32(entries, 5, 3); setI32(entries, 6, 7); setI32(entries, 7, 5)
  setI32(entries, 8, 0); setI32(entries, 9, 1); setI32(entries, 10, 5); setI32(entries, 11, 4)
  setI32(entries, 12, 2); setI32(entries, 13, 6); setI32(entries, 14, 7); setI32(entries, 15, 3)
  setI32(entries, 16, 0); setI32(entries, 17, 2); setI32(entries, 18, 3); setI32(entries, 19, 1)
  setI32(entries, 20, 4); setI32(entries, 21, 5); setI32(entries, 22, 7); setI32(entries, 23, 6)
  for (let f: i32 = 0; f < 6; f++) { setI32(starts, f, 4 * f); setI32(lens, f, 4) }
}

/** Polytope.edgeVertex: the vertex where edge (u in, w out) meets the current clip plane (one per edge and clip). −1 on overflow. */
function edgeVertex(u: i32, w: i32): i32 {
  for (let e: i32 = 0; e < edgeCount; e++) if (i32At(edgeIn, e) == u && i32At(edgeOut, e) == w) return i32At(edgeNew, e)
  if (nv >= VERTEX_CAP) return -1
  const su = f64At(vss, u), sw = f64At(vss, w)
  const t = su / (su - sw)
  const id = nv++
  setF64(vxs, id, f64At(vxs, u) + t * (f64At(vxs, w) - f64At(vxs, u)))
  setF64(vys, id, f64At(vys, u) + t * (f64At(vys, w) - f64At(vys, u)))
  setF64(vzs, id, f64At(vzs, u) + t * (f64At(vzs, w) - f64At(vzs, u)))
  store<u8>(state + <usize>id, 0)
  setI32(foundLen, id, -1)
  setI32(capNext, id, -1)
  setF64(vss, id, 0)
  setI32(edgeIn, edgeCount, u); setI32(edgeOut, edgeCount, w); setI32(edgeNew, edgeCount, id)
  edgeCount++
  return id
}

/** Polytope.clip: keeps {x : n·x ≤ c}. Returns 0 (nothing cut), 1 (cut), −1 (inconsistent / empty / overflow). */
function clip(nx: f64, ny: f64, nz: f64, c: f64): i32 {
  let anyOut = false, anyIn = false
  for (let k: i32 = 0; k < aliveCount; k++) {
    const v = i32At(alive, k)
    const s = nx * f64At(vxs, v) + ny * f64At(vys, v) + nz * f64At(vzs, v) - c
    setF64(vss, v, s)
    if (s > 0) anyOut = true
    else anyIn = true
  }
  if (!anyOut) return 0
  if (!anyIn) return -1
  edgeCount = 0
  const oldStarts = faceStarts(faceSide), oldLens = faceLens(faceSide), oldEntries = faceEntries(faceSide)
  const side = faceSide ^ 1
  const starts = faceStarts(side), lens = faceLens(side), entries = faceEntries(side)
  let nf: i32 = 0
  let top: i32 = 0
  for (let f: i32 = 0; f < faceCount; f++) {
    const poly = oldEntries + (<usize>i32At(oldStarts, f) << 2)
    const L = i32At(oldLens, f)
    let outs: i32 = 0, down: i32 = -1, up: i32 = -1, downs: i32 = 0
    const firstOut = f64At(vss, load<i32>(poly)) > 0
    let here = firstOut
    for (let i: i32 = 0; i < L; i++) {
      const next = i + 1 < L ? f64At(vss, i32At(poly, i + 1)) > 0 : firstOut
      if (here) outs++
      if (!here && next) { down = i; downs++ }
      if (here && !next) up = i
      here = next
    }
    if (outs == L) continue
    if (nf >= FACE_CAP || top + L + 2 > FACE_ENTRY_CAP) return -1
    const np = entries + (<usize>top << 2)
    if (outs == 0) {
      memory.copy(np, poly, <usize>L << 2)
      setI32(starts, nf, top); setI32(lens, nf, L)
      nf++
      top += L
      continue
    }
    if (downs != 1) return -1
    const downNext = down + 1 == L ? 0 : down + 1
    const upNext = up + 1 == L ? 0 : up + 1
    const a = edgeVertex(i32At(poly, down), i32At(poly, downNext))
    const b = edgeVertex(i32At(poly, upNext), i32At(poly, up))
    if (a < 0 || b < 0) return -1
    let len: i32 = 0
    for (let i = upNext; ; i = i + 1 == L ? 0 : i + 1) {
      setI32(np, len++, i32At(poly, i))
      if (i == down) break
    }
    setI32(np, len++, a)
    setI32(np, len++, b)
    if (i32At(capNext, b) != -1) return -1
    setI32(capNext, b, a)
    setI32(starts, nf, top); setI32(lens, nf, len)
    nf++
    top += len
  }
  // The cap: follow capNext from the first new vertex; it must close through every new vertex exactly once.
  if (edgeCount == 0) return -1
  if (nf >= FACE_CAP || top + edgeCount + 1 > FACE_ENTRY_CAP) return -1
  const cap = entries + (<usize>top << 2)
  const first = i32At(edgeNew, 0)
  let capLen: i32 = 0
  for (let v = first; ; ) {
    setI32(cap, capLen++, v)
    const n = i32At(capNext, v)
    if (n < 0 || capLen > edgeCount) return -1
    if (n == first) break
    v = n
  }
  if (capLen != edgeCount || capLen < 3) return -1
  setI32(starts, nf, top); setI32(lens, nf, capLen)
  nf++
  faceSide = side
  faceCount = nf
  let kept: i32 = 0
  for (let k: i32 = 0; k < aliveCount; k++) {
    const v = i32At(alive, k)
    if (f64At(vss, v) <= 0) setI32(alive, kept++, v)
  }
  for (let e: i32 = 0; e < edgeCount; e++) setI32(alive, kept++, i32At(edgeNew, e))
  aliveCount = kept
  return 1
}

/** CellBuilder.cut: clips j's polytope by m's bisector shifted outward by δ. */
function cut(m: i32, j: i32): i32 {
  setI32(processed, m, stamp)
  const px = f64At(xs, j), py = f64At(ys, j), pz = f64At(zs, j)
  const qx = f64At(xs, m), qy = f64At(ys, m), qz = f64At(zs, m)
  const nx = qx - px, ny = qy - py, nz = qz - pz
  const mx = 0.5 * (qx + px), my = 0.5 * (qy + py), mz = 0.5 * (qz + pz)
  const c = nx * mx + ny * my + nz * mz + shift * Math.sqrt(nx * nx + ny * ny + nz * nz)
  return clip(nx, ny, nz, c)
}

/**
 * CellBuilder.build(j): writes S_j (tree positions, in discovery order) to the output area and returns its size, or
 * returns −1 when j gets no cell.
 */
export function build(j: i32): i32 {
  // A fresh stamp per build; after 2³¹ − 1 builds the marks are cleared rather than let the stamp wrap onto old ones.
  if (stamp == i32.MAX_VALUE) {
    memory.fill(processed, 0, <usize>treeSize << 2)
    memory.fill(inSet, 0, <usize>treeSize << 2)
    stamp = 0
  }
  stamp++
  const n = treeSize
  const px = f64At(xs, j), py = f64At(ys, j), pz = f64At(zs, j)
  let ok = n > 1
  const got = n > 1 ? knn(px, py, pz, j, INITIAL_K) : 0
  if (got == 0 || f64At(kD, 0) < dup2) ok = false
  if (ok) {
    resetBox()
    for (let e: i32 = 0; e < got && ok; e++) if (cut(i32At(kIdx, e), j) < 0) ok = false
  }
  poolTop = poolBase
  // Every vertex: collect its ball (capped); a crowded ball means the vertex is far from final, so clip by the
  // vertex's nearest point first (cheap shaping) and retry; otherwise clip by every new point of the ball.
  while (ok) {
    let pending = false
    const count = aliveCount
    memory.copy(snapshot, alive, <usize>count << 2)
    for (let s: i32 = 0; s < count; s++) {
      const v = i32At(snapshot, s)
      if (load<u8>(state + <usize>v) != 0 || f64At(vss, v) > 0) continue
      pending = true
      const vx = f64At(vxs, v), vy = f64At(vys, v), vz = f64At(vzs, v)
      const dx = vx - px, dy = vy - py, dz = vz - pz
      const rv2 = dx * dx + dy * dy + dz * dz
      const rv = Math.sqrt(rv2)
      const R = rv * BALL_SCALE + halfGap / rv
      const list = poolTop
      let len = range(vx, vy, vz, R * R, j, list, RANGE_CAP)
      if (len == -1) {
        const m = nearest(vx, vy, vz, j)
        if (m != j && i32At(processed, m) != stamp && foundDistSq < rv2) {
          const r = cut(m, j)
          if (r < 0) { ok = false; break }
          if (r > 0) continue
        }
        len = range(vx, vy, vz, R * R, j, list, i32.MAX_VALUE)
      }
      if (len < 0) { ok = false; break }
      store<u8>(state + <usize>v, 2)
      setI32(foundStart, v, <i32>list)
      setI32(foundLen, v, len)
      poolTop = list + (<usize>len << 2)
      // Nearest to v first, ties in JS's discovery order (see range); insertion sort, lists are short.
      if (len > 0) {
        const m = i32At(list, 0)
        const ex = vx - f64At(xs, m), ey = vy - f64At(ys, m), ez = vz - f64At(zs, m)
        setF64(sortD, 0, ex * ex + ey * ey + ez * ez)
      }
      for (let e: i32 = 1; e < len; e++) {
        const m = i32At(list, e)
        const ex = vx - f64At(xs, m), ey = vy - f64At(ys, m), ez = vz - f64At(zs, m)
        const dm = ex * ex + ey * ey + ez * ez
        const leaf = i32At(leafOf, m)
        let f = e
        while (f > 0) {
          const df = f64At(sortD, f - 1)
          if (!(df > dm || (df == dm && discoveredAfter(i32At(list, f - 1), m, leaf)))) break
          setI32(list, f, i32At(list, f - 1)); setF64(sortD, f, df); f--
        }
        setI32(list, f, m); setF64(sortD, f, dm)
      }
      for (let e: i32 = 0; e < len; e++) {
        const m = i32At(list, e)
        if (i32At(processed, m) == stamp) continue
        if (cut(m, j) < 0) { ok = false; break }
      }
      if (!ok) break
    }
    if (!pending) break
  }
  if (!ok) return -1
  let total: i32 = 0
  for (let k: i32 = 0; k < aliveCount; k++) {
    const v = i32At(alive, k)
    const len = i32At(foundLen, v)
    if (len < 0) return -1
    const list = <usize>i32At(foundStart, v)
    for (let e: i32 = 0; e < len; e++) {
      const m = i32At(list, e)
      if (i32At(inSet, m) != stamp) { setI32(inSet, m, stamp); setI32(out, total++, m) }
    }
  }
  return total
}
