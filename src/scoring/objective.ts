// The ICP objective f(R, t) of scoring.md §6.1 over two static KD-trees, with warm hints and certificates; no ICP loop.
// Two interchangeable implementations give the same bits: `JsObjective` here and `WasmObjective` (objective-wasm.ts).
// Convention: rotations are row-major Float64Array(9); both clouds are centred (see IcpContext), R·p + t maps P onto T.
import type { KdTree } from './kd-tree.ts'

/**
 * Relative safety margin of a nearest-neighbour certificate (scoring.md §12a.1). Rounding in the three distances
 * involved is a few ulps (~1e-15); 1e-12 keeps every reused answer provably the exact nearest point.
 */
export const CERTIFICATE_MARGIN = 1 + 1e-12

/**
 * Which implementation evaluates the objective; all give the same bits. `cells` (default): the WebAssembly kernel with
 * the exact Voronoi-cell shortcut of cells.ts (fastest; the cells are built once per sample); `wasm`: the same kernel
 * with KD searches only; `js`: plain JS with KD searches only (the reference the kernel is a port of).
 */
export type IcpKernel = 'cells' | 'wasm' | 'js'

/** Every IcpKernel value, for option parsing. */
export const ICP_KERNELS: readonly IcpKernel[] = ['cells', 'wasm', 'js']

/**
 * One evaluation of f(R, t) per call: the forward term over P mapped by (R, t), the backward term over T mapped into
 * P's frame by Rᵀ(q − t). Also writes the Kabsch sums of the 2N pairs found into `sums`: Σs (3), Σq (3), Σ s qᵀ (9,
 * row-major), where s is a P point and q its paired T point. Warm hints carry over between calls until `reset`.
 */
export interface IcpObjective {
  reset(): void
  evaluate(rot: Float64Array, trans: Float64Array, sums: Float64Array): number
  /**
   * How many queries since the last call were answered by an exact tie: two points at the same float distance, the
   * KD search keeping the hint (so the pair found depends on the warm state). Certificates and cell walks are strict
   * and never tie. Returns the count and restarts it.
   */
  takeTies(): number
}

/** Nearest-neighbour state of one query direction: warm hints plus the certificate of §12a.1. */
class QuerySide {
  readonly hint: Int32Array
  readonly radius: Float64Array
  readonly origin: Float64Array
  constructor(n: number) {
    this.hint = new Int32Array(n)
    this.radius = new Float64Array(n)
    this.origin = new Float64Array(3 * n)
  }
  reset(): void {
    this.hint.fill(-1)
  }
}

/** The objective in plain JS: the reference implementation the WebAssembly kernel is a port of. */
export class JsObjective implements IcpObjective {
  private readonly forward: QuerySide
  private readonly backward: QuerySide
  private ties = 0

  private readonly treeP: KdTree
  private readonly treeT: KdTree

  /** `treeP` over the centred prediction, `treeT` over the centred target (equal sizes). */
  constructor(treeP: KdTree, treeT: KdTree) {
    this.treeP = treeP
    this.treeT = treeT
    this.forward = new QuerySide(treeP.size)
    this.backward = new QuerySide(treeT.size)
  }

  reset(): void {
    this.forward.reset()
    this.backward.reset()
  }

  takeTies(): number {
    const ties = this.ties
    this.ties = 0
    return ties
  }

  evaluate(r: Float64Array, t: Float64Array, s: Float64Array): number {
    const r0 = r[0]!, r1 = r[1]!, r2 = r[2]!, r3 = r[3]!, r4 = r[4]!, r5 = r[5]!, r6 = r[6]!, r7 = r[7]!, r8 = r[8]!
    const t0 = t[0]!, t1 = t[1]!, t2 = t[2]!
    const n = this.treeP.size
    let ssx = 0, ssy = 0, ssz = 0, sqx = 0, sqy = 0, sqz = 0
    let h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0, h8 = 0

    // Forward: every p (tree order of P) against the tree over T.
    let sumF = 0
    {
      const src = this.treeP.points
      const dstTree = this.treeT
      const dst = dstTree.points
      const side = this.forward
      const hint = side.hint, radius = side.radius, origin = side.origin
      for (let i = 0; i < n; i++) {
        const px = src[3 * i]!, py = src[3 * i + 1]!, pz = src[3 * i + 2]!
        const x = r0 * px + r1 * py + r2 * pz + t0
        const y = r3 * px + r4 * py + r5 * pz + t1
        const z = r6 * px + r7 * py + r8 * pz + t2
        let j = hint[i]!
        let d2 = 0
        let certified = false
        if (j >= 0) {
          const ox = x - origin[3 * i]!, oy = y - origin[3 * i + 1]!, oz = z - origin[3 * i + 2]!
          const dx = x - dst[3 * j]!, dy = y - dst[3 * j + 1]!, dz = z - dst[3 * j + 2]!
          d2 = dx * dx + dy * dy + dz * dz
          certified = (Math.sqrt(d2) + Math.sqrt(ox * ox + oy * oy + oz * oz)) * CERTIFICATE_MARGIN < radius[i]!
        }
        if (!certified) {
          j = dstTree.nearest(x, y, z, j)
          d2 = dstTree.distSq
          if (dstTree.secondLowerSq === d2) this.ties++
          hint[i] = j
          radius[i] = Math.sqrt(dstTree.secondLowerSq)
          origin[3 * i] = x; origin[3 * i + 1] = y; origin[3 * i + 2] = z
        }
        sumF += d2
        const qx = dst[3 * j]!, qy = dst[3 * j + 1]!, qz = dst[3 * j + 2]!
        ssx += px; ssy += py; ssz += pz; sqx += qx; sqy += qy; sqz += qz
        h0 += px * qx; h1 += px * qy; h2 += px * qz
        h3 += py * qx; h4 += py * qy; h5 += py * qz
        h6 += pz * qx; h7 += pz * qy; h8 += pz * qz
      }
    }

    // Backward: every q (tree order of T) mapped into P's frame, against the tree over P.
    let sumB = 0
    {
      const src = this.treeT.points
      const dstTree = this.treeP
      const dst = dstTree.points
      const side = this.backward
      const hint = side.hint, radius = side.radius, origin = side.origin
      for (let i = 0; i < n; i++) {
        const qx = src[3 * i]!, qy = src[3 * i + 1]!, qz = src[3 * i + 2]!
        const ux = qx - t0, uy = qy - t1, uz = qz - t2
        const x = r0 * ux + r3 * uy + r6 * uz
        const y = r1 * ux + r4 * uy + r7 * uz
        const z = r2 * ux + r5 * uy + r8 * uz
        let j = hint[i]!
        let d2 = 0
        let certified = false
        if (j >= 0) {
          const ox = x - origin[3 * i]!, oy = y - origin[3 * i + 1]!, oz = z - origin[3 * i + 2]!
          const dx = x - dst[3 * j]!, dy = y - dst[3 * j + 1]!, dz = z - dst[3 * j + 2]!
          d2 = dx * dx + dy * dy + dz * dz
          certified = (Math.sqrt(d2) + Math.sqrt(ox * ox + oy * oy + oz * oz)) * CERTIFICATE_MARGIN < radius[i]!
        }
        if (!certified) {
          j = dstTree.nearest(x, y, z, j)
          d2 = dstTree.distSq
          if (dstTree.secondLowerSq === d2) this.ties++
          hint[i] = j
          radius[i] = Math.sqrt(dstTree.secondLowerSq)
          origin[3 * i] = x; origin[3 * i + 1] = y; origin[3 * i + 2] = z
        }
        sumB += d2
        const px = dst[3 * j]!, py = dst[3 * j + 1]!, pz = dst[3 * j + 2]!
        ssx += px; ssy += py; ssz += pz; sqx += qx; sqy += qy; sqz += qz
        h0 += px * qx; h1 += px * qy; h2 += px * qz
        h3 += py * qx; h4 += py * qy; h5 += py * qz
        h6 += pz * qx; h7 += pz * qy; h8 += pz * qz
      }
    }
    s[0] = ssx; s[1] = ssy; s[2] = ssz; s[3] = sqx; s[4] = sqy; s[5] = sqz
    s[6] = h0; s[7] = h1; s[8] = h2; s[9] = h3; s[10] = h4; s[11] = h5; s[12] = h6; s[13] = h7; s[14] = h8
    return sumF / n + sumB / n
  }
}
