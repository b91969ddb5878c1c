// Quaternion → rotation matrix and small 3×3 helpers; no geometry beyond single matrices.
// Convention: every 3×3 matrix is a row-major Float64Array(9): m[3*r + c] is row r, column c.
import { ScoringError } from './errors.ts'

/** Quaternion norms below this are rejected (scoring.md §2, §12.9). */
export const QUATERNION_MIN_NORM = 1e-12

/**
 * Writes the rotation of the wxyz quaternion q[offset..offset+3] into `out` (row-major 3×3), after
 * normalising it (scoring.md §4). Throws `SCORING_ZERO_QUATERNION` for a non-finite or near-zero
 * quaternion; `what` names it in the message (e.g. `GT pose of part "seat"`).
 */
export function quaternionToMatrix(out: Float64Array, q: ArrayLike<number>, offset = 0, what = 'quaternion'): Float64Array {
  let w = q[offset]!
  let x = q[offset + 1]!
  let y = q[offset + 2]!
  let z = q[offset + 3]!
  const norm = Math.sqrt(w * w + x * x + y * y + z * z)
  if (!Number.isFinite(norm) || norm < QUATERNION_MIN_NORM) {
    throw new ScoringError(
      'SCORING_ZERO_QUATERNION',
      `${what}: Expected a finite nonzero wxyz quaternion (norm ≥ ${QUATERNION_MIN_NORM}), got [${w}, ${x}, ${y}, ${z}]; write the rotation as [w, x, y, z] with a nonzero norm`,
    )
  }
  w /= norm
  x /= norm
  y /= norm
  z /= norm
  out[0] = 1 - 2 * (y * y + z * z)
  out[1] = 2 * (x * y - z * w)
  out[2] = 2 * (x * z + y * w)
  out[3] = 2 * (x * y + z * w)
  out[4] = 1 - 2 * (x * x + z * z)
  out[5] = 2 * (y * z - x * w)
  out[6] = 2 * (x * z - y * w)
  out[7] = 2 * (y * z + x * w)
  out[8] = 1 - 2 * (x * x + y * y)
  return out
}

/** out = a · b. `out` may alias `a` or `b`. */
export function multiplyMat3(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const a0 = a[0]!, a1 = a[1]!, a2 = a[2]!, a3 = a[3]!, a4 = a[4]!, a5 = a[5]!, a6 = a[6]!, a7 = a[7]!, a8 = a[8]!
  const b0 = b[0]!, b1 = b[1]!, b2 = b[2]!, b3 = b[3]!, b4 = b[4]!, b5 = b[5]!, b6 = b[6]!, b7 = b[7]!, b8 = b[8]!
  out[0] = a0 * b0 + a1 * b3 + a2 * b6
  out[1] = a0 * b1 + a1 * b4 + a2 * b7
  out[2] = a0 * b2 + a1 * b5 + a2 * b8
  out[3] = a3 * b0 + a4 * b3 + a5 * b6
  out[4] = a3 * b1 + a4 * b4 + a5 * b7
  out[5] = a3 * b2 + a4 * b5 + a5 * b8
  out[6] = a6 * b0 + a7 * b3 + a8 * b6
  out[7] = a6 * b1 + a7 * b4 + a8 * b7
  out[8] = a6 * b2 + a7 * b5 + a8 * b8
  return out
}

/** out = aᵀ. `out` may alias `a`. */
export function transposeMat3(out: Float64Array, a: ArrayLike<number>): Float64Array {
  const a1 = a[1]!, a2 = a[2]!, a3 = a[3]!, a5 = a[5]!, a6 = a[6]!, a7 = a[7]!
  out[0] = a[0]!
  out[4] = a[4]!
  out[8] = a[8]!
  out[1] = a3
  out[3] = a1
  out[2] = a6
  out[6] = a2
  out[5] = a7
  out[7] = a5
  return out
}

/** Determinant of a row-major 3×3 matrix. */
export function determinantMat3(a: ArrayLike<number>): number {
  return (
    a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) -
    a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) +
    a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!)
  )
}

/** Nested row-major arrays (JSON form) of a flat row-major 3×3 matrix. */
export function mat3ToRows(m: ArrayLike<number>): number[][] {
  return [
    [m[0]!, m[1]!, m[2]!],
    [m[3]!, m[4]!, m[5]!],
    [m[6]!, m[7]!, m[8]!],
  ]
}
