// AssemblyScript KD-tree search shared by both kernels (icp-kernel.ts, cells-kernel.ts), which import it and so compile
// it into their own WebAssembly module (its globals are each module's own). `nearest` and `boxDistSq` are line-for-line
// ports of KdTree.nearest and boxDistSq in ../../kd-tree.ts: every floating-point expression keeps the same operands in
// the same order, so they give the same bits. WebAssembly has no fused multiply-add and rounds like JS doubles, so
// nothing here may be reassociated.
//
// The tree is a KdTreeArrays (../../kd-tree.ts) laid out by the host behind a header of i32 words: size, first leaf,
// then the addresses of the arrays below. Both kernels' headers start with these 12 words; each appends its own.
// `useTree` unpacks a header into the globals the searches read; `useNearestStack` sets the memory `nearest` uses for
// its stack (2·levels + 4 entries of i32 and of f64).

export const TREE_SIZE = 0
export const TREE_FIRST_LEAF = 4
export const TREE_NODE_START = 8
export const TREE_NODE_END = 12
export const TREE_BOXES = 16
export const TREE_SPLIT_AXIS = 20
export const TREE_SPLIT_VALUE = 24
export const TREE_XS = 28
export const TREE_YS = 32
export const TREE_ZS = 36
export const TREE_LEAF_OF = 40
export const TREE_NEXT_OF = 44

// The tree being searched, unpacked by `useTree`.
export let treeSize: i32 = 0
export let firstLeaf: i32 = 0
export let nodeStart: usize = 0
export let nodeEnd: usize = 0
export let boxes: usize = 0
export let splitAxis: usize = 0
export let splitValue: usize = 0
export let xs: usize = 0
export let ys: usize = 0
export let zs: usize = 0
export let leafOf: usize = 0
export let nextOf: usize = 0

// `nearest`'s stack: node ids (i32) and their box distances (f64).
let nearestStack: usize = 0
let nearestDist: usize = 0

// Results of the last `nearest`: the answer's squared distance, and a lower bound on the squared distance to every
// other point (KdTree.distSq, KdTree.secondLowerSq).
export let foundDistSq: f64 = 0
export let foundSecondSq: f64 = 0

/** Makes the tree whose header is at `header` the one the searches read. */
export function useTree(header: usize): void {
  treeSize = load<i32>(header + TREE_SIZE)
  firstLeaf = load<i32>(header + TREE_FIRST_LEAF)
  nodeStart = load<u32>(header + TREE_NODE_START)
  nodeEnd = load<u32>(header + TREE_NODE_END)
  boxes = load<u32>(header + TREE_BOXES)
  splitAxis = load<u32>(header + TREE_SPLIT_AXIS)
  splitValue = load<u32>(header + TREE_SPLIT_VALUE)
  xs = load<u32>(header + TREE_XS)
  ys = load<u32>(header + TREE_YS)
  zs = load<u32>(header + TREE_ZS)
  leafOf = load<u32>(header + TREE_LEAF_OF)
  nextOf = load<u32>(header + TREE_NEXT_OF)
}

/** Sets the memory of `nearest`'s stack: `stackBase` for the node ids (i32), `distBase` for their distances (f64). */
export function useNearestStack(stackBase: usize, distBase: usize): void {
  nearestStack = stackBase
  nearestDist = distBase
}

// @ts-ignore: decorator
@inline export function i32At(base: usize, i: i32): i32 { return load<i32>(base + (<usize>i << 2)) }
// @ts-ignore: decorator
@inline export function setI32(base: usize, i: i32, v: i32): void { store<i32>(base + (<usize>i << 2), v) }
// @ts-ignore: decorator
@inline export function f64At(base: usize, i: i32): f64 { return load<f64>(base + (<usize>i << 3)) }
// @ts-ignore: decorator
@inline export function setF64(base: usize, i: i32, v: f64): void { store<f64>(base + (<usize>i << 3), v) }

/** Address of node `node`'s box (xyz min, xyz max). */
// @ts-ignore: decorator
@inline export function boxOf(node: i32): usize { return boxes + <usize>node * 48 }

/** The other child of `node`'s parent (node > 0). */
// @ts-ignore: decorator
@inline export function siblingOf(node: i32): i32 { return (node & 1) == 1 ? node + 1 : node - 1 }

/** The parent of `node` (node > 0). */
// @ts-ignore: decorator
@inline export function parentOf(node: i32): i32 { return (node - 1) >> 1 }

/**
 * How far q lies on `node`'s side of the split plane of `parent` (its parent): gap > 0 and gap² ≥ r² means every
 * point of the sibling's subtree is at squared distance ≥ r² (its box lies beyond the plane); ≤ 0 when q is not.
 */
// @ts-ignore: decorator
@inline export function siblingGap(node: i32, parent: i32, qx: f64, qy: f64, qz: f64): f64 {
  const axis = load<u8>(splitAxis + <usize>parent)
  const qa = axis == 0 ? qx : axis == 1 ? qy : qz
  const split = f64At(splitValue, parent)
  return (node & 1) == 1 ? split - qa : qa - split
}

/** Squared distance from q to a box (xyz min, xyz max), summed x, y, z like boxDistSq in kd-tree.ts. */
// @ts-ignore: decorator
@inline export function boxDistSq(b: usize, qx: f64, qy: f64, qz: f64): f64 {
  let d: f64 = 0
  let gap = load<f64>(b) - qx
  if (gap > 0) d += gap * gap
  else { gap = qx - load<f64>(b, 24); if (gap > 0) d += gap * gap }
  gap = load<f64>(b, 8) - qy
  if (gap > 0) d += gap * gap
  else { gap = qy - load<f64>(b, 32); if (gap > 0) d += gap * gap }
  gap = load<f64>(b, 16) - qz
  if (gap > 0) d += gap * gap
  else { gap = qz - load<f64>(b, 40); if (gap > 0) d += gap * gap }
  return d
}

/**
 * KdTree.nearest on the current tree: the exact nearest tree position to q, searched from the leaf of `hint` when
 * hint ≥ 0 (ties keep the hint), from the root when it is −1. Sets foundDistSq and foundSecondSq.
 */
export function nearest(qx: f64, qy: f64, qz: f64, hint: i32): i32 {
  const xa = xs, ya = ys, za = zs
  let best: f64 = Infinity
  let second: f64 = Infinity
  let bestPos: i32 = -1
  let node: i32 = 0
  if (hint >= 0) {
    let dx = qx - f64At(xa, hint), dy = qy - f64At(ya, hint), dz = qz - f64At(za, hint)
    best = dx * dx + dy * dy + dz * dz
    bestPos = hint
    const next = i32At(nextOf, hint)
    if (next >= 0) {
      dx = qx - f64At(xa, next); dy = qy - f64At(ya, next); dz = qz - f64At(za, next)
      const d = dx * dx + dy * dy + dz * dz
      if (d < best) { second = best; best = d; bestPos = next } else { second = d }
    }
    node = i32At(leafOf, hint)
  }
  setI32(nearestStack, 0, node)
  setF64(nearestDist, 0, 0)
  let top: i32 = 1
  while (true) {
    while (top > 0) {
      top--
      if (f64At(nearestDist, top) >= second) continue
      const at = i32At(nearestStack, top)
      if (at >= firstLeaf) {
        const end = i32At(nodeEnd, at)
        for (let i = i32At(nodeStart, at); i < end; i++) {
          const dx = qx - f64At(xa, i), dy = qy - f64At(ya, i), dz = qz - f64At(za, i)
          const dd = dx * dx + dy * dy + dz * dz
          if (dd < second && i != bestPos) {
            if (dd < best) { second = best; best = dd; bestPos = i } else { second = dd }
          }
        }
        continue
      }
      const left = 2 * at + 1
      const boxLeft = boxOf(left)
      const dl = boxDistSq(boxLeft, qx, qy, qz)
      const dr = boxDistSq(boxLeft + 48, qx, qy, qz)
      if (dl <= dr) {
        if (dr < second) { setI32(nearestStack, top, left + 1); setF64(nearestDist, top, dr); top++ }
        if (dl < second) { setI32(nearestStack, top, left); setF64(nearestDist, top, dl); top++ }
      } else {
        if (dl < second) { setI32(nearestStack, top, left); setF64(nearestDist, top, dl); top++ }
        if (dr < second) { setI32(nearestStack, top, left + 1); setF64(nearestDist, top, dr); top++ }
      }
    }
    if (node == 0) break
    const parent = parentOf(node)
    const gap = siblingGap(node, parent, qx, qy, qz)
    if (!(gap > 0 && gap * gap >= second)) {
      const sibling = siblingOf(node)
      const d = boxDistSq(boxOf(sibling), qx, qy, qz)
      if (d < second) { setI32(nearestStack, 0, sibling); setF64(nearestDist, 0, d); top = 1 }
    }
    node = parent
  }
  foundDistSq = best
  foundSecondSq = second
  return bestPos
}
