// Symmetric point-to-point ICP from one start (scoring.md §6.1, §6.4) over two static KD-trees; no start generation, no winner choice.
// Convention: rotations are row-major Float64Array(9); a transform maps prediction points p to R·p + t.
import { KdTree } from './kd-tree.ts'
import { kabschRotationFromCovariance } from './kabsch.ts'
import type { AlignmentStart } from './starts.ts'

/** Iteration cap of one start (§6.4). */
export const ICP_MAX_ITERATIONS = 100
/** A start stops once the objective improves by less than this (negative improvements included) (§6.4). */
export const ICP_IMPROVEMENT_TOLERANCE = 1e-9
/** A stopped start counts as converged when its last improvement is at least −this (§6.4). */
export const ICP_CONVERGED_TOLERANCE = 1e-12
/**
 * Relative safety margin of a nearest-neighbour certificate (scoring.md §12a.1). Rounding in the three distances
 * involved is a few ulps (~1e-15); 1e-12 keeps every reused answer provably the exact nearest point.
 */
const CERTIFICATE_MARGIN = 1 + 1e-12

/** The outcome of one start: its best-ever transform (§6.4 step 4) and its run statistics. */
export interface StartResult {
  /** Start name (`pca-k` / `part-k`). */
  seed: string
  /** Best objective value f reached (strict < keeps the earliest iteration). */
  chamfer: number
  rotation: Float64Array
  translation: Float64Array
  /** Iteration at which `chamfer` was reached (0 = the start itself). */
  bestIteration: number
  iterations: number
  converged: boolean
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

/**
 * Everything ICP needs for one (prediction, target) pair, built once per sample (per worker): both clouds
 * centred on their centroids (for accuracy) and a KD-tree on each. `runStart` allocates only its result.
 */
export class IcpContext {
  /** Points per cloud. */
  readonly size: number
  private readonly centerP: Float64Array
  private readonly centerT: Float64Array
  private readonly treeP: KdTree
  private readonly treeT: KdTree
  private readonly forward: QuerySide
  private readonly backward: QuerySide
  // Kabsch sums from the last evaluation: Σs (3), Σq (3), Σ s qᵀ (9, row-major).
  private readonly sums = new Float64Array(15)
  private readonly rot = new Float64Array(9)
  private readonly trans = new Float64Array(3)
  private readonly h = new Float64Array(9)

  /** `prediction` and `target` are flat xyz arrays of equal length (validated by the caller). */
  constructor(prediction: ArrayLike<number>, target: ArrayLike<number>) {
    const n = prediction.length / 3
    this.size = n
    this.centerP = centroid(prediction)
    this.centerT = centroid(target)
    this.treeP = new KdTree(shifted(prediction, this.centerP))
    this.treeT = new KdTree(shifted(target, this.centerT))
    this.forward = new QuerySide(n)
    this.backward = new QuerySide(n)
  }

  /** Runs ICP from `start` and returns its best-encountered transform. Independent of previous calls (hints reset). */
  runStart(start: AlignmentStart): StartResult {
    this.forward.reset()
    this.backward.reset()
    const rot = this.rot
    const trans = this.trans
    rot.set(start.rotation)
    // Internal translation between the centred frames: t' = R·c_P + t − c_T.
    const cP = this.centerP, cT = this.centerT
    for (let r = 0; r < 3; r++) {
      trans[r] = rot[3 * r]! * cP[0]! + rot[3 * r + 1]! * cP[1]! + rot[3 * r + 2]! * cP[2]! + start.translation[r]! - cT[r]!
    }
    let f = this.evaluate()
    let bestF = f
    const bestRot = Float64Array.from(rot)
    const bestTrans = Float64Array.from(trans)
    let bestIteration = 0
    let prev = f
    let iterations = ICP_MAX_ITERATIONS
    let converged = false
    for (let k = 1; k <= ICP_MAX_ITERATIONS; k++) {
      this.fitFromSums()
      f = this.evaluate()
      if (f < bestF) {
        bestF = f
        bestRot.set(rot)
        bestTrans.set(trans)
        bestIteration = k
      }
      const improvement = prev - f
      prev = f
      if (!(improvement >= ICP_IMPROVEMENT_TOLERANCE)) {
        iterations = k
        converged = improvement >= -ICP_CONVERGED_TOLERANCE
        break
      }
    }
    const translation = new Float64Array(3)
    for (let r = 0; r < 3; r++) {
      translation[r] = bestTrans[r]! + cT[r]! - (bestRot[3 * r]! * cP[0]! + bestRot[3 * r + 1]! * cP[1]! + bestRot[3 * r + 2]! * cP[2]!)
    }
    return { seed: start.name, chamfer: bestF, rotation: bestRot, translation, bestIteration, iterations, converged }
  }

  /** Kabsch over the 2N pairs of the last evaluation (§6.4 step 2.1–2.2), from the accumulated sums. */
  private fitFromSums(): void {
    const s = this.sums
    const m = 2 * this.size
    const sx = s[0]! / m, sy = s[1]! / m, sz = s[2]! / m
    const qx = s[3]! / m, qy = s[4]! / m, qz = s[5]! / m
    const h = this.h
    // Σ (s − s̄)(q − q̄)ᵀ = Σ s qᵀ − m s̄ q̄ᵀ; both clouds are centred, so the subtraction loses no digits.
    h[0] = s[6]! - m * sx * qx; h[1] = s[7]! - m * sx * qy; h[2] = s[8]! - m * sx * qz
    h[3] = s[9]! - m * sy * qx; h[4] = s[10]! - m * sy * qy; h[5] = s[11]! - m * sy * qz
    h[6] = s[12]! - m * sz * qx; h[7] = s[13]! - m * sz * qy; h[8] = s[14]! - m * sz * qz
    const r = kabschRotationFromCovariance(this.rot, h)
    const t = this.trans
    t[0] = qx - (r[0]! * sx + r[1]! * sy + r[2]! * sz)
    t[1] = qy - (r[3]! * sx + r[4]! * sy + r[5]! * sz)
    t[2] = qz - (r[6]! * sx + r[7]! * sy + r[8]! * sz)
  }

  /**
   * f(R, t) of §6.1 at the current transform, in the centred frames: forward term over P mapped by (R, t'),
   * backward term over T mapped into P's frame by Rᵀ(q − t'). Accumulates the Kabsch sums of the pairs found.
   */
  private evaluate(): number {
    const r = this.rot, t = this.trans
    const r0 = r[0]!, r1 = r[1]!, r2 = r[2]!, r3 = r[3]!, r4 = r[4]!, r5 = r[5]!, r6 = r[6]!, r7 = r[7]!, r8 = r[8]!
    const t0 = t[0]!, t1 = t[1]!, t2 = t[2]!
    const n = this.size
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
    const s = this.sums
    s[0] = ssx; s[1] = ssy; s[2] = ssz; s[3] = sqx; s[4] = sqy; s[5] = sqz
    s[6] = h0; s[7] = h1; s[8] = h2; s[9] = h3; s[10] = h4; s[11] = h5; s[12] = h6; s[13] = h7; s[14] = h8
    return sumF / n + sumB / n
  }
}

function centroid(cloud: ArrayLike<number>): Float64Array {
  const n = cloud.length / 3
  let x = 0, y = 0, z = 0
  for (let i = 0; i < n; i++) {
    x += cloud[3 * i]!; y += cloud[3 * i + 1]!; z += cloud[3 * i + 2]!
  }
  return new Float64Array([x / n, y / n, z / n])
}

function shifted(cloud: ArrayLike<number>, c: Float64Array): Float64Array {
  const out = new Float64Array(cloud.length)
  const cx = c[0]!, cy = c[1]!, cz = c[2]!
  for (let i = 0; i < out.length; i += 3) {
    out[i] = cloud[i]! - cx
    out[i + 1] = cloud[i + 1]! - cy
    out[i + 2] = cloud[i + 2]! - cz
  }
  return out
}
