// AssemblyScript source of the ICP objective kernel (scoring.md §6.1): one evaluation of f(R, t) over two static
// KD-trees with warm hints and certificates, writing the Kabsch sums of the pairs it found. Compiled to WebAssembly
// by `npm run build:wasm`; `../../objective-wasm.ts` lays the trees (and, optionally, the Voronoi cells of
// `../../cells.ts`) out in memory and calls `evaluate`.
//
// Each uncertified query is answered, in this order, by:
//  1. the cell test + greedy walk over the cells (when configured): from the warm hint j, scan S_j; if every point
//     of S_j is strictly farther, j is the unique float argmin (cells.ts proves it); if the closest k of S_j is
//     strictly nearer, move to k and rescan (at most WALK_MAX_STEPS moves). In the first evaluation after a reset
//     (no hint) the walk starts from the previous query's answer instead (SEED_MAX_STEPS);
//  2. otherwise (exact tie, too many steps, no cell, query outside the cells' box, no cells configured)
//     `nearest` of ./kd-search.ts, a line-for-line port of `KdTree.nearest` in `../../kd-tree.ts`, with the same hint.
// A walk answer is the unique argmin, i.e. what `nearest` would return, so the pair and its d2 are the same bits;
// after a walk the certificate radius is the smallest distance over S_j, which holds the second-nearest point.
// This is a line-for-line port of `JsObjective` in `../../objective.ts` plus that shortcut: every floating-point
// expression keeps the same operands in the same order, so both give the same bits (tested). WebAssembly has no
// fused multiply-add and rounds like JS doubles, so nothing here may be reassociated.

import { TREE_SIZE, foundDistSq, foundSecondSq, nearest, useNearestStack, useTree } from './kd-search'

// Tree header (i32 words), written by the host (../../objective-wasm.ts): the 12 words of kd-search.ts (size, first
// leaf, the search arrays' addresses), then the address of the interleaved points.
const T_POINTS = 48
// Cells header (i32 words): start (i32, n+1: S_j's first PAIR), nbr (i32, 2 per pair), pair coordinates (f64 ×6 per
// pair: x₀ x₁ y₀ y₁ z₀ z₁, the two entries' lanes), noCell (u8), box (6 f64). S_j's entries fill pairs in their order;
// an odd count leaves the last pair's lane 1 padded with +∞ coordinates (distance +∞, never chosen) and nbr −1.
const C_START = 0
const C_NBR = 4
const C_XYZ = 8
const C_NOCELL = 12
const C_BOX = 16
/** Most moves of one walk from a warm hint, resp. from the previous query's answer; then the KD search. */
const WALK_MAX_STEPS: i32 = 8
const SEED_MAX_STEPS: i32 = 8
// Query-side header (i32 words): warm hint per query, certificate radius, origin of the last search.
const S_HINT = 0
const S_RADIUS = 4
const S_ORIGIN = 8

/** Relative margin of a certificate; the same constant as CERTIFICATE_MARGIN in icp.ts. */
const CERTIFICATE_MARGIN: f64 = 1 + 1e-12

let treeT: usize = 0
let treeP: usize = 0
let sideF: usize = 0
let sideB: usize = 0
let sumsOut: usize = 0

// Cells headers of the target and prediction clouds; 0 = no cells (every uncertified query runs the KD search).
let cellsT: usize = 0
let cellsP: usize = 0
let cellsOn = false
// The cells being walked, unpacked once per direction.
let cStart: usize = 0
let cNbr: usize = 0
let cXyz: usize = 0
let cNoCell: usize = 0
let bx0: f64 = 0
let by0: f64 = 0
let bz0: f64 = 0
let bx1: f64 = 0
let by1: f64 = 0
let bz1: f64 = 0
// Distance of answer()'s result.
let qD2: f64 = 0
// Result of walk().
let wPos: i32 = -1
let wD2: f64 = 0
let wSecond: f64 = 0
// KD searches that met an exact tie (their answer is the hint's choice) since the last takeTies().
let ties: i32 = 0

/** Sets the memory addresses of both trees, both query sides, the 15 output sums and the search stack. */
export function configure(target: usize, prediction: usize, forward: usize, backward: usize, sums: usize, stackBase: usize, stackDistBase: usize): void {
  treeT = target
  treeP = prediction
  sideF = forward
  sideB = backward
  sumsOut = sums
  useNearestStack(stackBase, stackDistBase)
}

/** Sets the addresses of the cells headers of the target and prediction clouds (both 0: no cells). */
export function configureCells(target: usize, prediction: usize): void {
  cellsT = target
  cellsP = prediction
}

function useCells(cells: usize): void {
  cellsOn = cells != 0
  if (!cellsOn) return
  cStart = load<u32>(cells + C_START)
  cNbr = load<u32>(cells + C_NBR)
  cXyz = load<u32>(cells + C_XYZ)
  cNoCell = load<u32>(cells + C_NOCELL)
  const b = <usize>load<u32>(cells + C_BOX)
  bx0 = load<f64>(b); by0 = load<f64>(b, 8); bz0 = load<f64>(b, 16)
  bx1 = load<f64>(b, 24); by1 = load<f64>(b, 32); bz1 = load<f64>(b, 40)
}

/**
 * Cell test + walk from j (x inside B) over the current cells, two entries of S_j per SIMD step; dst = the searched
 * cloud's interleaved points.
 * 1 with wPos/wD2/wSecond set, or −1 exact tie, −2 too many steps, −3 reached a point without a cell.
 */
function walk(dst: usize, x: f64, y: f64, z: f64, j: i32, maxSteps: i32): i32 {
  let b = dst + <usize>j * 24
  let dx = x - load<f64>(b), dy = y - load<f64>(b, 8), dz = z - load<f64>(b, 16)
  let dj = dx * dx + dy * dy + dz * dz
  const qx2 = f64x2.splat(x), qy2 = f64x2.splat(y), qz2 = f64x2.splat(z)
  let step: i32 = 0
  while (true) {
    if (load<u8>(cNoCell + <usize>j) == 1) return -3
    const p1 = load<i32>(cStart + (<usize>(j + 1) << 2))
    let p = load<i32>(cStart + (<usize>j << 2))
    let bestV = f64x2.splat(Infinity)
    let bestI = i64x2.splat(-1)
    let at = i64x2(<i64>(2 * p), <i64>(2 * p + 1))
    const two = i64x2.splat(2)
    for (; p < p1; p++) {
      const c = cXyz + <usize>p * 48
      const ex = f64x2.sub(qx2, v128.load(c))
      const ey = f64x2.sub(qy2, v128.load(c, 16))
      const ez = f64x2.sub(qz2, v128.load(c, 32))
      const d = f64x2.add(f64x2.add(f64x2.mul(ex, ex), f64x2.mul(ey, ey)), f64x2.mul(ez, ez))
      const closer = f64x2.lt(d, bestV)
      bestV = v128.bitselect(d, bestV, closer)
      bestI = v128.bitselect(at, bestI, closer)
      at = i64x2.add(at, two)
    }
    // Each lane keeps its first minimum (strict <): lane 0 over the even entries of S_j, lane 1 over the odd ones.
    // The smaller wins, and of two equal ones the earlier entry, so bestE is the first minimum of the scalar scan.
    // Lane arithmetic is the scalar expression, rounded per lane, so every d has the scalar bits.
    const b0 = f64x2.extract_lane(bestV, 0), b1 = f64x2.extract_lane(bestV, 1)
    const i0 = i64x2.extract_lane(bestI, 0), i1 = i64x2.extract_lane(bestI, 1)
    const lane1 = b1 < b0 || (b1 == b0 && i1 < i0)
    const best = lane1 ? b1 : b0
    const bestE = <i32>(lane1 ? i1 : i0)
    if (best > dj) {
      wPos = j; wD2 = dj; wSecond = best
      return 1
    }
    if (best == dj) return -1
    if (step >= maxSteps) return -2
    j = load<i32>(cNbr + (<usize>bestE << 2))
    dj = best
    step++
  }
  return -2
}

// @ts-ignore: decorator
@inline function insideBox(x: f64, y: f64, z: f64): bool {
  return x > bx0 && x < bx1 && y > by0 && y < by1 && z > bz0 && z < bz1
}

/**
 * Uncertified query i at (x, y, z) with warm hint j (−1 after a reset): walk over the cells, else the KD search.
 * Returns the nearest point and sets qD2; refreshes the query's hint, certificate radius and origin.
 */
// @ts-ignore: decorator
@inline function answer(dst: usize, x: f64, y: f64, z: f64, i: i32, j: i32, hint: usize, radius: usize, origin: usize): i32 {
  let w: i32 = 0
  if (cellsOn && insideBox(x, y, z)) {
    if (j >= 0) w = walk(dst, x, y, z, j, WALK_MAX_STEPS)
    else if (i > 0) w = walk(dst, x, y, z, load<i32>(hint + (<usize>(i - 1) << 2)), SEED_MAX_STEPS)
  }
  if (w == 1) {
    j = wPos
    qD2 = wD2
    store<i32>(hint + (<usize>i << 2), j)
    store<f64>(radius + (<usize>i << 3), Math.sqrt(wSecond))
  } else {
    j = nearest(x, y, z, j)
    qD2 = foundDistSq
    // The search's second distance is exact (kd-search.ts), so equal to the first iff another point ties.
    if (foundSecondSq == foundDistSq) ties++
    store<i32>(hint + (<usize>i << 2), j)
    store<f64>(radius + (<usize>i << 3), Math.sqrt(foundSecondSq))
  }
  const oo = origin + <usize>i * 24
  store<f64>(oo, x); store<f64>(oo, y, 8); store<f64>(oo, z, 16)
  return j
}

/** Queries answered by an exact tie since the last call (walks and certificates never are: both are strict). */
export function takeTies(): i32 {
  const t = ties
  ties = 0
  return t
}

/**
 * f(R, t) of §6.1 in the centred frames (see IcpContext in icp.ts): the forward term over P mapped by (R, t), the
 * backward term over T mapped by Rᵀ(q − t). Writes Σs, Σq, Σ s qᵀ of the 2N pairs to the sums area.
 */
export function evaluate(r0: f64, r1: f64, r2: f64, r3: f64, r4: f64, r5: f64, r6: f64, r7: f64, r8: f64, t0: f64, t1: f64, t2: f64): f64 {
  let ssx: f64 = 0, ssy: f64 = 0, ssz: f64 = 0, sqx: f64 = 0, sqy: f64 = 0, sqz: f64 = 0
  let h0: f64 = 0, h1: f64 = 0, h2: f64 = 0, h3: f64 = 0, h4: f64 = 0, h5: f64 = 0, h6: f64 = 0, h7: f64 = 0, h8: f64 = 0
  const n = load<i32>(treeT + TREE_SIZE)

  // Forward: every p (tree order of P) against the tree over T.
  let sumF: f64 = 0
  {
    useTree(treeT)
    useCells(cellsT)
    const src = <usize>load<u32>(treeP + T_POINTS)
    const dst = <usize>load<u32>(treeT + T_POINTS)
    const hint = <usize>load<u32>(sideF + S_HINT)
    const radius = <usize>load<u32>(sideF + S_RADIUS)
    const origin = <usize>load<u32>(sideF + S_ORIGIN)
    for (let i = 0; i < n; i++) {
      const a = src + <usize>i * 24
      const px = load<f64>(a), py = load<f64>(a, 8), pz = load<f64>(a, 16)
      const x = r0 * px + r1 * py + r2 * pz + t0
      const y = r3 * px + r4 * py + r5 * pz + t1
      const z = r6 * px + r7 * py + r8 * pz + t2
      const ho = hint + (<usize>i << 2)
      const oo = origin + <usize>i * 24
      let j = load<i32>(ho)
      let d2: f64 = 0
      let certified = false
      if (j >= 0) {
        const ox = x - load<f64>(oo), oy = y - load<f64>(oo, 8), oz = z - load<f64>(oo, 16)
        const b = dst + <usize>j * 24
        const dx = x - load<f64>(b), dy = y - load<f64>(b, 8), dz = z - load<f64>(b, 16)
        d2 = dx * dx + dy * dy + dz * dz
        certified = (Math.sqrt(d2) + Math.sqrt(ox * ox + oy * oy + oz * oz)) * CERTIFICATE_MARGIN < load<f64>(radius + (<usize>i << 3))
      }
      if (!certified) {
        j = answer(dst, x, y, z, i, j, hint, radius, origin)
        d2 = qD2
      }
      sumF += d2
      const b = dst + <usize>j * 24
      const qx = load<f64>(b), qy = load<f64>(b, 8), qz = load<f64>(b, 16)
      ssx += px; ssy += py; ssz += pz; sqx += qx; sqy += qy; sqz += qz
      h0 += px * qx; h1 += px * qy; h2 += px * qz
      h3 += py * qx; h4 += py * qy; h5 += py * qz
      h6 += pz * qx; h7 += pz * qy; h8 += pz * qz
    }
  }

  // Backward: every q (tree order of T) mapped into P's frame, against the tree over P.
  let sumB: f64 = 0
  {
    useTree(treeP)
    useCells(cellsP)
    const src = <usize>load<u32>(treeT + T_POINTS)
    const dst = <usize>load<u32>(treeP + T_POINTS)
    const hint = <usize>load<u32>(sideB + S_HINT)
    const radius = <usize>load<u32>(sideB + S_RADIUS)
    const origin = <usize>load<u32>(sideB + S_ORIGIN)
    for (let i = 0; i < n; i++) {
      const a = src + <usize>i * 24
      const qx = load<f64>(a), qy = load<f64>(a, 8), qz = load<f64>(a, 16)
      const ux = qx - t0, uy = qy - t1, uz = qz - t2
      const x = r0 * ux + r3 * uy + r6 * uz
      const y = r1 * ux + r4 * uy + r7 * uz
      const z = r2 * ux + r5 * uy + r8 * uz
      const ho = hint + (<usize>i << 2)
      const oo = origin + <usize>i * 24
      let j = load<i32>(ho)
      let d2: f64 = 0
      let certified = false
      if (j >= 0) {
        const ox = x - load<f64>(oo), oy = y - load<f64>(oo, 8), oz = z - load<f64>(oo, 16)
        const b = dst + <usize>j * 24
        const dx = x - load<f64>(b), dy = y - load<f64>(b, 8), dz = z - load<f64>(b, 16)
        d2 = dx * dx + dy * dy + dz * dz
        certified = (Math.sqrt(d2) + Math.sqrt(ox * ox + oy * oy + oz * oz)) * CERTIFICATE_MARGIN < load<f64>(radius + (<usize>i << 3))
      }
      if (!certified) {
        j = answer(dst, x, y, z, i, j, hint, radius, origin)
        d2 = qD2
      }
      sumB += d2
      const b = dst + <usize>j * 24
      const px = load<f64>(b), py = load<f64>(b, 8), pz = load<f64>(b, 16)
      ssx += px; ssy += py; ssz += pz; sqx += qx; sqy += qy; sqz += qz
      h0 += px * qx; h1 += px * qy; h2 += px * qz
      h3 += py * qx; h4 += py * qy; h5 += py * qz
      h6 += pz * qx; h7 += pz * qy; h8 += pz * qz
    }
  }
  const s = sumsOut
  store<f64>(s, ssx); store<f64>(s, ssy, 8); store<f64>(s, ssz, 16)
  store<f64>(s, sqx, 24); store<f64>(s, sqy, 32); store<f64>(s, sqz, 40)
  store<f64>(s, h0, 48); store<f64>(s, h1, 56); store<f64>(s, h2, 64)
  store<f64>(s, h3, 72); store<f64>(s, h4, 80); store<f64>(s, h5, 88)
  store<f64>(s, h6, 96); store<f64>(s, h7, 104); store<f64>(s, h8, 112)
  return sumF / <f64>n + sumB / <f64>n
}
