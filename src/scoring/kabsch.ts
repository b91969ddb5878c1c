// Proper rigid fit (Kabsch, scoring.md §5.3) from paired points or from accumulated sums, via an accurate 3×3 SVD; no correspondence search.
// Convention: matrices are row-major Float64Array(9). The fitted map is q ≈ R·s + t.

/** Sweeps of one-sided Jacobi after which the SVD stops (convergence takes 5–8 in practice). */
const SVD_MAX_SWEEPS = 40
/** Relative orthogonality at which a column pair counts as converged (a few ulps). */
const SVD_ORTHOGONALITY_TOL = 1e-15

const _a = new Float64Array(9)
const _v = new Float64Array(9)
const _h = new Float64Array(9)

/**
 * Singular vectors of the row-major 3×3 `h` by one-sided (Hestenes) Jacobi, which keeps high relative accuracy
 * for every singular value. Writes U (columns u1, u2, u3 = u1 × u2) and V (columns in the same order, sorted by
 * singular value descending) and the singular values `sigma` (descending; `sigma[2]` ≥ 0 up to the sign folded into v3).
 * Only u1, u2, v1, v2 and v1 × v2 are meaningful when σ3 is 0, which is all Kabsch needs.
 */
export function svd3(outU: Float64Array, outSigma: Float64Array, outV: Float64Array, h: ArrayLike<number>): void {
  const a = _a
  const v = _v
  for (let i = 0; i < 9; i++) a[i] = h[i]!
  v.fill(0)
  v[0] = v[4] = v[8] = 1
  for (let sweep = 0; sweep < SVD_MAX_SWEEPS; sweep++) {
    const changed = orthogonalize(a, v, 0, 1) | orthogonalize(a, v, 0, 2) | orthogonalize(a, v, 1, 2)
    if (changed === 0) break
  }
  const n0 = colNorm(a, 0), n1 = colNorm(a, 1), n2 = colNorm(a, 2)
  // Order columns by singular value, descending; ties keep column order (deterministic).
  let i0 = 0, i1 = 1, i2 = 2
  const norms = [n0, n1, n2]
  if (norms[i1]! > norms[i0]!) { const t = i0; i0 = i1; i1 = t }
  if (norms[i2]! > norms[i1]!) { const t = i1; i1 = i2; i2 = t }
  if (norms[i1]! > norms[i0]!) { const t = i0; i0 = i1; i1 = t }
  const s0 = norms[i0]!, s1 = norms[i1]!, s2 = norms[i2]!
  outSigma[0] = s0
  outSigma[1] = s1
  outSigma[2] = s2
  for (let r = 0; r < 3; r++) {
    outU[3 * r] = s0 > 0 ? a[3 * r + i0]! / s0 : r === 0 ? 1 : 0
    outV[3 * r] = v[3 * r + i0]!
    outV[3 * r + 1] = v[3 * r + i1]!
    outV[3 * r + 2] = v[3 * r + i2]!
  }
  // u2: the normalized second column, or any unit vector orthogonal to u1 when σ2 = 0 (rank ≤ 1).
  if (s1 > 0) {
    for (let r = 0; r < 3; r++) outU[3 * r + 1] = a[3 * r + i1]! / s1
  } else {
    const ux = outU[0]!, uy = outU[3]!, uz = outU[6]!
    const ax = Math.abs(ux) < 0.5 ? 1 : 0
    const ay = ax === 0 && Math.abs(uy) < 0.5 ? 1 : 0
    const az = ax === 0 && ay === 0 ? 1 : 0
    let px = ay * uz - az * uy, py = az * ux - ax * uz, pz = ax * uy - ay * ux
    const pn = Math.hypot(px, py, pz)
    px /= pn; py /= pn; pz /= pn
    outU[1] = px; outU[4] = py; outU[7] = pz
  }
  // u3 := u1 × u2 so U is proper; flip v3 to match the sign of the computed third column, so H = U Σ Vᵀ still holds.
  const u1x = outU[0]!, u1y = outU[3]!, u1z = outU[6]!
  const u2x = outU[1]!, u2y = outU[4]!, u2z = outU[7]!
  const cx = u1y * u2z - u1z * u2y, cy = u1z * u2x - u1x * u2z, cz = u1x * u2y - u1y * u2x
  outU[2] = cx; outU[5] = cy; outU[8] = cz
  const dot = cx * a[i2]! + cy * a[3 + i2]! + cz * a[6 + i2]!
  if (dot < 0) {
    outV[2] = -outV[2]!
    outV[5] = -outV[5]!
    outV[8] = -outV[8]!
  }
}

function colNorm(a: Float64Array, j: number): number {
  return Math.hypot(a[j]!, a[3 + j]!, a[6 + j]!)
}

/** One Hestenes rotation making columns p and q of `a` orthogonal; returns 1 when it rotated. */
function orthogonalize(a: Float64Array, v: Float64Array, p: number, q: number): number {
  let alpha = 0, beta = 0, gamma = 0
  for (let r = 0; r < 3; r++) {
    const ap = a[3 * r + p]!, aq = a[3 * r + q]!
    alpha += ap * ap
    beta += aq * aq
    gamma += ap * aq
  }
  if (gamma === 0 || Math.abs(gamma) <= SVD_ORTHOGONALITY_TOL * Math.sqrt(alpha * beta)) return 0
  const zeta = (beta - alpha) / (2 * gamma)
  const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta))
  const c = 1 / Math.sqrt(1 + t * t)
  const s = c * t
  for (let r = 0; r < 3; r++) {
    const ap = a[3 * r + p]!, aq = a[3 * r + q]!
    a[3 * r + p] = c * ap - s * aq
    a[3 * r + q] = s * ap + c * aq
    const vp = v[3 * r + p]!, vq = v[3 * r + q]!
    v[3 * r + p] = c * vp - s * vq
    v[3 * r + q] = s * vp + c * vq
  }
  return 1
}

const _u = new Float64Array(9)
const _sv = new Float64Array(3)
const _vv = new Float64Array(9)

/**
 * Rotation of the Kabsch fit from the cross-covariance H = Σ (s − s̄)(q − q̄)ᵀ (row-major): R = V·diag(1, 1, d)·Uᵀ
 * with d = det(V Uᵀ), always proper (scoring.md §5.3, §12.7). Written as R = v1u1ᵀ + v2u2ᵀ + (v1×v2)(u1×u2)ᵀ,
 * which is that formula with the determinant fix folded in and needs no third singular vector.
 */
export function kabschRotationFromCovariance(outR: Float64Array, h: ArrayLike<number>): Float64Array {
  svd3(_u, _sv, _vv, h)
  const u = _u, v = _vv
  const u1x = u[0]!, u1y = u[3]!, u1z = u[6]!, u2x = u[1]!, u2y = u[4]!, u2z = u[7]!
  const v1x = v[0]!, v1y = v[3]!, v1z = v[6]!, v2x = v[1]!, v2y = v[4]!, v2z = v[7]!
  const u3x = u1y * u2z - u1z * u2y, u3y = u1z * u2x - u1x * u2z, u3z = u1x * u2y - u1y * u2x
  const v3x = v1y * v2z - v1z * v2y, v3y = v1z * v2x - v1x * v2z, v3z = v1x * v2y - v1y * v2x
  outR[0] = v1x * u1x + v2x * u2x + v3x * u3x
  outR[1] = v1x * u1y + v2x * u2y + v3x * u3y
  outR[2] = v1x * u1z + v2x * u2z + v3x * u3z
  outR[3] = v1y * u1x + v2y * u2x + v3y * u3x
  outR[4] = v1y * u1y + v2y * u2y + v3y * u3y
  outR[5] = v1y * u1z + v2y * u2z + v3y * u3z
  outR[6] = v1z * u1x + v2z * u2x + v3z * u3x
  outR[7] = v1z * u1y + v2z * u2y + v3z * u3y
  outR[8] = v1z * u1z + v2z * u2z + v3z * u3z
  return outR
}

/**
 * Kabsch fit q ≈ R·s + t for paired flat xyz arrays `source` and `target` (same length, ≥ 3 points), writing
 * R (row-major) into `outR` and t into `outT`. Centroids are subtracted before the products (two passes) so
 * large offsets do not cancel digits.
 */
export function kabsch(outR: Float64Array, outT: Float64Array, source: ArrayLike<number>, target: ArrayLike<number>): void {
  const n = source.length / 3
  let sx = 0, sy = 0, sz = 0, qx = 0, qy = 0, qz = 0
  for (let i = 0; i < n; i++) {
    sx += source[3 * i]!; sy += source[3 * i + 1]!; sz += source[3 * i + 2]!
    qx += target[3 * i]!; qy += target[3 * i + 1]!; qz += target[3 * i + 2]!
  }
  sx /= n; sy /= n; sz /= n; qx /= n; qy /= n; qz /= n
  let h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0, h8 = 0
  for (let i = 0; i < n; i++) {
    const ax = source[3 * i]! - sx, ay = source[3 * i + 1]! - sy, az = source[3 * i + 2]! - sz
    const bx = target[3 * i]! - qx, by = target[3 * i + 1]! - qy, bz = target[3 * i + 2]! - qz
    h0 += ax * bx; h1 += ax * by; h2 += ax * bz
    h3 += ay * bx; h4 += ay * by; h5 += ay * bz
    h6 += az * bx; h7 += az * by; h8 += az * bz
  }
  const h = _h
  h[0] = h0; h[1] = h1; h[2] = h2; h[3] = h3; h[4] = h4; h[5] = h5; h[6] = h6; h[7] = h7; h[8] = h8
  kabschRotationFromCovariance(outR, h)
  outT[0] = qx - (outR[0]! * sx + outR[1]! * sy + outR[2]! * sz)
  outT[1] = qy - (outR[3]! * sx + outR[4]! * sy + outR[5]! * sz)
  outT[2] = qz - (outR[6]! * sx + outR[7]! * sy + outR[8]! * sz)
}
