// Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations (float64); no sorting policy beyond descending order.
// Convention: matrices are row-major Float64Array(9); eigenvectors are returned as the COLUMNS of `vectors`.

/** Sweeps after which Jacobi stops even if an off-diagonal entry is still above roundoff (never reached in practice). */
const JACOBI_MAX_SWEEPS = 64

export interface SymmetricEigen3 {
  /** Eigenvalues in descending order. */
  values: Float64Array
  /** Row-major 3×3; column k is the unit eigenvector of values[k]. */
  vectors: Float64Array
}

/**
 * Eigenvalues (descending) and orthonormal eigenvectors of the symmetric matrix `s` (row-major; only the
 * upper triangle is read). Cyclic Jacobi is used because it is accurate to roundoff on every input, including
 * repeated and zero eigenvalues, which closed-form cubic solutions are not.
 */
export function symmetricEigen3(s: ArrayLike<number>): SymmetricEigen3 {
  const a = new Float64Array([s[0]!, s[1]!, s[2]!, s[1]!, s[4]!, s[5]!, s[2]!, s[5]!, s[8]!])
  const v = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1])
  for (let sweep = 0; sweep < JACOBI_MAX_SWEEPS; sweep++) {
    const off = Math.abs(a[1]!) + Math.abs(a[2]!) + Math.abs(a[5]!)
    if (off === 0) break
    const scale = Math.abs(a[0]!) + Math.abs(a[4]!) + Math.abs(a[8]!)
    // Off-diagonal mass below roundoff of the diagonal: further rotations cannot change the result.
    if (sweep > 3 && off <= 1e-300 + scale * 1e-18) break
    rotate(a, v, 0, 1)
    rotate(a, v, 0, 2)
    rotate(a, v, 1, 2)
  }
  const order = [0, 1, 2].sort((i, j) => a[4 * j]! - a[4 * i]!)
  const values = new Float64Array(3)
  const vectors = new Float64Array(9)
  for (let k = 0; k < 3; k++) {
    const src = order[k]!
    values[k] = a[4 * src]!
    for (let r = 0; r < 3; r++) vectors[3 * r + k] = v[3 * r + src]!
  }
  return { values, vectors }
}

/** One Jacobi rotation zeroing a[p][q] (Golub & Van Loan, Algorithm 8.5.1, symmetric Schur). */
function rotate(a: Float64Array, v: Float64Array, p: number, q: number): void {
  const apq = a[3 * p + q]!
  if (apq === 0) return
  const app = a[4 * p]!
  const aqq = a[4 * q]!
  const tau = (aqq - app) / (2 * apq)
  const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau))
  const c = 1 / Math.sqrt(1 + t * t)
  const s = t * c
  for (let k = 0; k < 3; k++) {
    const akp = a[3 * k + p]!
    const akq = a[3 * k + q]!
    a[3 * k + p] = c * akp - s * akq
    a[3 * k + q] = s * akp + c * akq
  }
  for (let k = 0; k < 3; k++) {
    const apk = a[3 * p + k]!
    const aqk = a[3 * q + k]!
    a[3 * p + k] = c * apk - s * aqk
    a[3 * q + k] = s * apk + c * aqk
  }
  // The rotation zeroes this pair exactly in exact arithmetic; store the exact zero so sweeps terminate.
  a[3 * p + q] = 0
  a[3 * q + p] = 0
  for (let k = 0; k < 3; k++) {
    const vkp = v[3 * k + p]!
    const vkq = v[3 * k + q]!
    v[3 * k + p] = c * vkp - s * vkq
    v[3 * k + q] = s * vkp + c * vkq
  }
}
