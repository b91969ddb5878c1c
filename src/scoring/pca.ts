// The canonical PCA frame of a point cloud (scoring.md §5.2), with its exact tie and sign rules; no alignment.
// Convention: the basis is a row-major Float64Array(9) whose COLUMNS are the axes (largest, middle, cross product).
//
// Reference-exact to the last bit: the eigenvectors come from a reproduction of the reference's LAPACK dsyevd
// (lapack-eigen.ts) and every other step uses numpy's arithmetic (numpy-arith.ts). That matters when the first
// scanned point is nearly orthogonal to an axis: the projection P·x is then tiny and its direction carries the
// projector's rounding (≈1e-10 in conformance 07_pca cases 4–6), which only the same operations reproduce.
import { lapackSymmetricEigen3 } from './lapack-eigen.ts'
import { ScoringError } from './errors.ts'
import { centroid, divide3, dot3, matVec3, minusScaled3, norm3, projector, rowNorm, scatterMatrix } from './numpy-arith.ts'

/** Eigenvalues within this fraction of the largest eigenvalue are one eigenspace (§5.2 step 3). */
export const PCA_EIGENVALUE_TIE_RTOL = 1e-10
/** A scanned point projection longer than this (points scaled by the largest norm) becomes an axis (§5.2 step 4.3). */
export const PCA_AXIS_MIN_LENGTH = 1e-8

export interface PcaFrame {
  /** Centroid [x, y, z]. */
  center: Float64Array
  /** Row-major 3×3 with the axes as columns; right-handed (det +1). */
  basis: Float64Array
}

/**
 * PCA frame of the flat xyz cloud `points` (stored order matters: it sets axis signs and breaks eigenvalue ties).
 * Throws `SCORING_DEGENERATE_PART` when fewer than two axes exist (all points collinear or coincident);
 * `what` names the cloud in that message.
 */
export function pcaFrame(points: ArrayLike<number>, what = 'point cloud'): PcaFrame {
  const n = points.length / 3
  const center = centroid(points, n)
  const eigen = eigenDecomposition(scatterMatrix(points, n, center), what)
  // LAPACK returns ascending eigenvalues; the reference reverses them (argsort(w)[::-1] on sorted w).
  const values = [eigen.values[2]!, eigen.values[1]!, eigen.values[0]!]
  const vectors = new Float64Array(9)
  for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) vectors[3 * r + k] = eigen.vectors[3 * r + 2 - k]!

  let maxNorm = 0
  for (let i = 0; i < n; i++) {
    const norm = rowNorm(points[3 * i]! - center[0], points[3 * i + 1]! - center[1], points[3 * i + 2]! - center[2])
    if (norm > maxNorm) maxNorm = norm
  }
  const axes: number[][] = []
  if (maxNorm > 0) {
    const tie = PCA_EIGENVALUE_TIE_RTOL * values[0]!
    let start = 0
    while (start < 3 && axes.length < 2) {
      let end = start + 1
      while (end < 3 && values[end - 1]! - values[end]! <= tie) end++
      scanGroup(points, n, center, maxNorm, projector(vectors, start, end), end - start, axes)
      start = end
    }
  }
  if (axes.length < 2) {
    throw new ScoringError(
      'SCORING_DEGENERATE_PART',
      `${what}: Degenerate part: its ${n} points span fewer than two directions (collinear or coincident), so no PCA frame exists; check the cloud's points`,
    )
  }
  // §5.2 step 7: re-orthonormalize.
  const a1 = divide3(axes[0]!, norm3(axes[0]!))
  const b = axes[1]!
  const a2raw = minusScaled3(b, dot3(b, a1), a1)
  const a2 = divide3(a2raw, norm3(a2raw))
  const a3 = [a1[1]! * a2[2]! - a1[2]! * a2[1]!, a1[2]! * a2[0]! - a1[0]! * a2[2]!, a1[0]! * a2[1]! - a1[1]! * a2[0]!]
  const basis = new Float64Array(9)
  for (let r = 0; r < 3; r++) {
    basis[3 * r] = a1[r]!
    basis[3 * r + 1] = a2[r]!
    basis[3 * r + 2] = a3[r]!
  }
  return { center: new Float64Array(center), basis }
}

function eigenDecomposition(scatter: Float64Array, what: string): ReturnType<typeof lapackSymmetricEigen3> {
  try {
    return lapackSymmetricEigen3(scatter)
  } catch (error) {
    throw new ScoringError(
      'SCORING_BAD_INPUT',
      `${what}: the PCA scatter matrix cannot be decomposed (${(error as Error).message}); check the cloud's coordinates`,
    )
  }
}

/** §5.2 step 4: scan the scaled centred points through the group's projector and accept axes in point order. */
function scanGroup(
  points: ArrayLike<number>, n: number, center: readonly number[], maxNorm: number,
  p: Float64Array, dim: number, axes: number[][],
): void {
  const chosen: number[][] = []
  for (let i = 0; i < n && chosen.length < dim && axes.length < 2; i++) {
    const x = [
      (points[3 * i]! - center[0]!) / maxNorm,
      (points[3 * i + 1]! - center[1]!) / maxNorm,
      (points[3 * i + 2]! - center[2]!) / maxNorm,
    ]
    let r: number[] = matVec3(p, x)
    for (const a of chosen) {
      r = minusScaled3(r, dot3(r, a), a)
    }
    const len = norm3(r)
    if (len > PCA_AXIS_MIN_LENGTH) {
      const axis = divide3(r, len)
      chosen.push(axis)
      axes.push(axis)
    }
  }
}
