// The canonical PCA frame of a point cloud (scoring.md §5.2), with its exact tie and sign rules; no alignment.
// Convention: the basis is a row-major Float64Array(9) whose COLUMNS are the axes (largest, middle, cross product).
import { symmetricEigen3 } from './eigen3.ts'
import { ScoringError } from './errors.ts'

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
  let cx = 0, cy = 0, cz = 0
  for (let i = 0; i < n; i++) {
    cx += points[3 * i]!
    cy += points[3 * i + 1]!
    cz += points[3 * i + 2]!
  }
  cx /= n; cy /= n; cz /= n
  let sxx = 0, sxy = 0, sxz = 0, syy = 0, syz = 0, szz = 0, maxNormSq = 0
  for (let i = 0; i < n; i++) {
    const x = points[3 * i]! - cx, y = points[3 * i + 1]! - cy, z = points[3 * i + 2]! - cz
    sxx += x * x; sxy += x * y; sxz += x * z; syy += y * y; syz += y * z; szz += z * z
    const nn = x * x + y * y + z * z
    if (nn > maxNormSq) maxNormSq = nn
  }
  const { values, vectors } = symmetricEigen3([sxx, sxy, sxz, sxy, syy, syz, sxz, syz, szz])
  const maxNorm = Math.sqrt(maxNormSq)
  const axes: number[][] = []
  if (maxNorm > 0) {
    const tie = PCA_EIGENVALUE_TIE_RTOL * values[0]!
    let start = 0
    while (start < 3 && axes.length < 2) {
      let end = start + 1
      while (end < 3 && values[end - 1]! - values[end]! <= tie) end++
      scanGroup(points, n, cx, cy, cz, maxNorm, vectors, start, end, axes)
      start = end
    }
  }
  if (axes.length < 2) {
    throw new ScoringError(
      'SCORING_DEGENERATE_PART',
      `${what}: Degenerate part: its ${n} points span fewer than two directions (collinear or coincident), so no PCA frame exists; check the cloud's points`,
    )
  }
  const a1 = normalize(axes[0]!)
  const b = axes[1]!
  const d = b[0]! * a1[0]! + b[1]! * a1[1]! + b[2]! * a1[2]!
  const a2 = normalize([b[0]! - d * a1[0]!, b[1]! - d * a1[1]!, b[2]! - d * a1[2]!])
  const a3 = [a1[1]! * a2[2]! - a1[2]! * a2[1]!, a1[2]! * a2[0]! - a1[0]! * a2[2]!, a1[0]! * a2[1]! - a1[1]! * a2[0]!]
  const basis = new Float64Array(9)
  for (let r = 0; r < 3; r++) {
    basis[3 * r] = a1[r]!
    basis[3 * r + 1] = a2[r]!
    basis[3 * r + 2] = a3[r]!
  }
  return { center: new Float64Array([cx, cy, cz]), basis }
}

/** §5.2 step 4: scan the scaled centred points through the group's projector and accept axes in point order. */
function scanGroup(
  points: ArrayLike<number>, n: number, cx: number, cy: number, cz: number, maxNorm: number,
  vectors: Float64Array, start: number, end: number, axes: number[][],
): void {
  const dim = end - start
  const chosen: number[][] = []
  for (let i = 0; i < n && chosen.length < dim && axes.length < 2; i++) {
    const x = (points[3 * i]! - cx) / maxNorm, y = (points[3 * i + 1]! - cy) / maxNorm, z = (points[3 * i + 2]! - cz) / maxNorm
    // P·x evaluated as Σ e_k (e_k · x) over the group's eigenvectors: the same projector (sign-free, so the
    // eigen-solver's sign convention cannot matter), but a nearly orthogonal point keeps the exact direction e_k
    // instead of picking up roundoff from every matrix entry.
    let vx = 0, vy = 0, vz = 0
    for (let k = start; k < end; k++) {
      const ex = vectors[k]!, ey = vectors[3 + k]!, ez = vectors[6 + k]!
      const d = ex * x + ey * y + ez * z
      vx += d * ex; vy += d * ey; vz += d * ez
    }
    for (const a of chosen) {
      const d = vx * a[0]! + vy * a[1]! + vz * a[2]!
      vx -= d * a[0]!; vy -= d * a[1]!; vz -= d * a[2]!
    }
    const len = Math.sqrt(vx * vx + vy * vy + vz * vz)
    if (len > PCA_AXIS_MIN_LENGTH) {
      const axis = [vx / len, vy / len, vz / len]
      chosen.push(axis)
      axes.push(axis)
    }
  }
}

function normalize(v: number[]): number[] {
  const len = Math.sqrt(v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!)
  return [v[0]! / len, v[1]! / len, v[2]! / len]
}
