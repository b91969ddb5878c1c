// Symmetric 3×3 eigen-decomposition reproducing, bit for bit, what the reference scorer gets from
// `scipy.linalg.eigh(S, driver="evd")` (scipy 1.10.1 wheel: LAPACK dsyevd in OpenBLAS 0.3.18, x86-64).
//
// Why bit for bit: the reference forms the PCA projector from these eigenvectors, and for a scanned point nearly
// orthogonal to an axis the projector's last-bit rounding decides the axis direction at the 1e-10 level
// (conformance 07_pca cases 4–6). A mathematically better solver lands elsewhere, so this file follows dsyevd's
// path for N = 3 exactly: DSYTD2 (lower) → DSTEQR ('I', implicit QL/QR, Wilkinson shift) → DORM2R, with every
// expression evaluated in the Fortran source order and the BLAS calls in the arithmetic of OpenBLAS's kernels
// (measured against the library: dsymv and ddot sum plainly, daxpy/dsyr2/dger update plainly, dnrm2 of one
// element is |x|, dgemv-T of two rows is fma(a₀, x₀, a₁·x₁)). Checked against the library on hundreds of matrices
// in test/unit/scoring/reference-numerics.test.ts (fixture from scripts/oracle/pca_oracle.py).
//
// Storage follows LAPACK: column-major, 1-based helpers (`at(i, j)`) so each line can be read against the
// algorithm's description. Matrices whose norm would make dsyevd rescale (outside ≈1e-146…1e146) are outside
// the reproduced path and throw.
import { fusedMultiplyAdd } from './fma.ts'

export interface LapackEigen3 {
  /** Ascending eigenvalues. */
  values: Float64Array
  /** Row-major 3×3; column k is the unit eigenvector of values[k]. */
  vectors: Float64Array
}

const N = 3
const EPS = 2 ** -53 // DLAMCH('E')
const SAFMIN = 2 ** -1022 // DLAMCH('S')
const EPS2 = EPS * EPS
const SSFMAX = Math.sqrt(1 / SAFMIN) / 3
const SSFMIN = Math.sqrt(SAFMIN) / EPS2
// DSYEVD rescales the matrix outside [sqrt(SAFMIN/PRECISION), sqrt(PRECISION/SAFMIN)], PRECISION = DLAMCH('P').
const PRECISION = 2 ** -52
const RMIN = Math.sqrt(SAFMIN / PRECISION)
const RMAX = Math.sqrt(PRECISION / SAFMIN)
const MAXIT = 30

/** Eigen-decomposition of the symmetric row-major 3×3 `matrix` (its lower triangle is read, as UPLO = 'L'). */
export function lapackSymmetricEigen3(matrix: ArrayLike<number>): LapackEigen3 {
  const a = new Float64Array(9) // column-major A(i, j) = a[(i-1) + 3(j-1)]
  for (let i = 0; i < 3; i++) for (let j = 0; j <= i; j++) a[i + 3 * j] = matrix[3 * i + j]!
  const anrm = Math.max(...[0, 1, 2, 4, 5, 8].map((k) => Math.abs(a[k]!)))
  if (Number.isNaN(anrm) || !Number.isFinite(anrm)) throw new RangeError('lapackSymmetricEigen3: the matrix has a non-finite entry')
  if (anrm > 0 && (anrm < RMIN || anrm > RMAX)) {
    throw new RangeError(`lapackSymmetricEigen3: matrix norm ${anrm} is outside the reproduced range [${RMIN}, ${RMAX}]`)
  }
  const d = new Float64Array(N + 1) // 1-based D(1..N)
  const e = new Float64Array(N) // 1-based E(1..N-1)
  const tau = new Float64Array(N) // 1-based TAU(1..N-1)
  tridiagonalize(a, d, e, tau)
  const z = new Float64Array(9) // column-major Z, set to I by DSTEQR
  tridiagonalEigen(d, e, z)
  applyReflectors(a, tau, z)
  const values = new Float64Array([d[1]!, d[2]!, d[3]!])
  const vectors = new Float64Array(9)
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) vectors[3 * i + j] = z[i + 3 * j]!
  return { values, vectors }
}

// ---- DSYTD2, UPLO = 'L' -------------------------------------------------------------------------------------

function tridiagonalize(a: Float64Array, d: Float64Array, e: Float64Array, tau: Float64Array): void {
  const at = (i: number, j: number): number => (i - 1) + 3 * (j - 1)
  for (let i = 1; i <= N - 1; i++) {
    const m = N - i
    // Reflector H(i) annihilating A(i+2:n, i): alpha = A(i+1, i), x = A(i+2:n, i).
    const xIndex = at(Math.min(i + 2, N), i)
    const { tau: taui, beta } = householder(m, a[at(i + 1, i)]!, a, xIndex)
    a[at(i + 1, i)] = beta
    e[i] = beta
    if (taui !== 0) {
      a[at(i + 1, i)] = 1
      const v = new Float64Array(m)
      for (let r = 0; r < m; r++) v[r] = a[at(i + 1 + r, i)]!
      const sym = (r: number, c: number): number => (r >= c ? a[at(i + 1 + r, i + 1 + c)]! : a[at(i + 1 + c, i + 1 + r)]!)
      // DSYMV: w = taui · A v (the kernel sums each row of the full symmetric block, then scales).
      const w = new Float64Array(m)
      for (let r = 0; r < m; r++) {
        let s = sym(r, 0) * v[0]!
        for (let c = 1; c < m; c++) s = s + sym(r, c) * v[c]!
        w[r] = taui * s
      }
      // alpha = −½ · taui · (wᵀv); DAXPY: w += alpha · v.
      let dot = 0
      for (let r = 0; r < m; r++) dot = dot + w[r]! * v[r]!
      const alpha = -0.5 * taui * dot
      for (let r = 0; r < m; r++) w[r] = w[r]! + alpha * v[r]!
      // DSYR2 (alpha = −1): A := A − v wᵀ − w vᵀ on the lower triangle, column by column.
      for (let c = 0; c < m; c++) {
        const ax = -1 * v[c]!, ay = -1 * w[c]!
        for (let r = c; r < m; r++) {
          const k = at(i + 1 + r, i + 1 + c)
          a[k] = a[k]! + ax * w[r]!
          a[k] = a[k]! + ay * v[r]!
        }
      }
      a[at(i + 1, i)] = e[i]!
    }
    d[i] = a[at(i, i)]!
    tau[i] = taui
  }
  d[N] = a[at(N, N)]!
}

/** DLARFG for x of length n − 1 ≤ 1 (all N = 3 needs); scales x in place and returns tau and beta. */
function householder(n: number, alpha: number, a: Float64Array, xIndex: number): { tau: number, beta: number } {
  if (n <= 1) return { tau: 0, beta: alpha }
  if (n !== 2) throw new Error('householder: only reflectors of length 2 occur for 3×3 matrices')
  let xnorm = Math.abs(a[xIndex]!) // DNRM2 of one element
  if (xnorm === 0) return { tau: 0, beta: alpha }
  let beta = -fortranSign(pythagoras(alpha, xnorm), alpha)
  const safmin = SAFMIN / EPS
  let knt = 0
  if (Math.abs(beta) < safmin) {
    const rsafmn = 1 / safmin
    do {
      knt++
      a[xIndex] = a[xIndex]! * rsafmn
      beta = beta * rsafmn
      alpha = alpha * rsafmn
    } while (Math.abs(beta) < safmin && knt < 20)
    xnorm = Math.abs(a[xIndex]!)
    beta = -fortranSign(pythagoras(alpha, xnorm), alpha)
  }
  const tau = (beta - alpha) / beta
  a[xIndex] = a[xIndex]! * (1 / (alpha - beta))
  for (let j = 0; j < knt; j++) beta = beta * safmin
  return { tau, beta }
}

// ---- DSTEQR, COMPZ = 'I' ------------------------------------------------------------------------------------

function tridiagonalEigen(d: Float64Array, e: Float64Array, z: Float64Array): void {
  z.fill(0)
  z[0] = z[4] = z[8] = 1
  const work = new Float64Array(2 * (N - 1) + 1) // 1-based WORK(1..2N-2)
  const nmaxit = N * MAXIT
  let jtot = 0
  let l1 = 1
  const nm1 = N - 1
  for (;;) {
    if (l1 > N) break
    if (l1 > 1) e[l1 - 1] = 0
    // Find a negligible off-diagonal entry: the block [l1, m] splits there.
    let m = N
    for (let k = l1; k <= nm1; k++) {
      const tst = Math.abs(e[k]!)
      if (tst === 0) { m = k; break }
      if (tst <= (Math.sqrt(Math.abs(d[k]!)) * Math.sqrt(Math.abs(d[k + 1]!))) * EPS) { e[k] = 0; m = k; break }
    }
    let l = l1
    const lsv = l
    let lend = m
    const lendsv = lend
    l1 = m + 1
    if (lend === l) continue
    // Scale the block when its norm is near over- or underflow.
    const anorm = maxAbs(d, l, lend - l + 1, e, l, lend - l)
    let iscale = 0
    if (anorm === 0) continue
    if (anorm > SSFMAX) {
      iscale = 1
      scaleRange(anorm, SSFMAX, d, l, lend - l + 1)
      scaleRange(anorm, SSFMAX, e, l, lend - l)
    } else if (anorm < SSFMIN) {
      iscale = 2
      scaleRange(anorm, SSFMIN, d, l, lend - l + 1)
      scaleRange(anorm, SSFMIN, e, l, lend - l)
    }
    // QL when the bottom diagonal entry is the larger, QR otherwise.
    if (Math.abs(d[lend]!) < Math.abs(d[l]!)) {
      lend = lsv
      l = lendsv
    }
    if (lend > l) {
      ql: for (;;) {
        let mm = lend
        if (l !== lend) {
          for (let k = l; k <= lend - 1; k++) {
            const tst = Math.abs(e[k]!) * Math.abs(e[k]!)
            if (tst <= (EPS2 * Math.abs(d[k]!)) * Math.abs(d[k + 1]!) + SAFMIN) { mm = k; break }
          }
        }
        m = mm
        if (m < lend) e[m] = 0
        let p = d[l]!
        if (m === l) {
          d[l] = p
          l = l + 1
          if (l <= lend) continue ql
          break ql
        }
        if (m === l + 1) {
          const { rt1, rt2, cs1, sn1 } = symmetricEigen2(d[l]!, e[l]!, d[l + 1]!)
          work[l] = cs1
          work[N - 1 + l] = sn1
          applyRotations(z, 2, work, l, N - 1 + l, l, 'backward')
          d[l] = rt1
          d[l + 1] = rt2
          e[l] = 0
          l = l + 2
          if (l <= lend) continue ql
          break ql
        }
        if (jtot === nmaxit) break ql
        jtot++
        // Wilkinson shift.
        let g = (d[l + 1]! - p) / (2 * e[l]!)
        let r = pythagoras(g, 1)
        g = d[m]! - p + (e[l]! / (g + fortranSign(r, g)))
        let s = 1, c = 1
        p = 0
        for (let i = m - 1; i >= l; i--) {
          const f = s * e[i]!
          const b = c * e[i]!
          ;({ c, s, r } = givens(g, f))
          if (i !== m - 1) e[i + 1] = r
          g = d[i + 1]! - p
          r = (d[i]! - g) * s + 2 * c * b
          p = s * r
          d[i + 1] = g + p
          g = c * r - b
          work[i] = c
          work[N - 1 + i] = -s
        }
        applyRotations(z, m - l + 1, work, l, N - 1 + l, l, 'backward')
        d[l] = d[l]! - p
        e[l] = g
      }
    } else {
      qr: for (;;) {
        let mm = lend
        if (l !== lend) {
          for (let k = l; k >= lend + 1; k--) {
            const tst = Math.abs(e[k - 1]!) * Math.abs(e[k - 1]!)
            if (tst <= (EPS2 * Math.abs(d[k]!)) * Math.abs(d[k - 1]!) + SAFMIN) { mm = k; break }
          }
        }
        m = mm
        if (m > lend) e[m - 1] = 0
        let p = d[l]!
        if (m === l) {
          d[l] = p
          l = l - 1
          if (l >= lend) continue qr
          break qr
        }
        if (m === l - 1) {
          const { rt1, rt2, cs1, sn1 } = symmetricEigen2(d[l - 1]!, e[l - 1]!, d[l]!)
          work[m] = cs1
          work[N - 1 + m] = sn1
          applyRotations(z, 2, work, m, N - 1 + m, l - 1, 'forward')
          d[l - 1] = rt1
          d[l] = rt2
          e[l - 1] = 0
          l = l - 2
          if (l >= lend) continue qr
          break qr
        }
        if (jtot === nmaxit) break qr
        jtot++
        let g = (d[l - 1]! - p) / (2 * e[l - 1]!)
        let r = pythagoras(g, 1)
        g = d[m]! - p + (e[l - 1]! / (g + fortranSign(r, g)))
        let s = 1, c = 1
        p = 0
        for (let i = m; i <= l - 1; i++) {
          const f = s * e[i]!
          const b = c * e[i]!
          ;({ c, s, r } = givens(g, f))
          if (i !== m) e[i - 1] = r
          g = d[i]! - p
          r = (d[i + 1]! - g) * s + 2 * c * b
          p = s * r
          d[i] = g + p
          g = c * r - b
          work[i] = c
          work[N - 1 + i] = s
        }
        applyRotations(z, l - m + 1, work, m, N - 1 + m, m, 'forward')
        d[l] = d[l]! - p
        e[l - 1] = g
      }
    }
    if (iscale === 1) {
      scaleRange(SSFMAX, anorm, d, lsv, lendsv - lsv + 1)
      scaleRange(SSFMAX, anorm, e, lsv, lendsv - lsv)
    } else if (iscale === 2) {
      scaleRange(SSFMIN, anorm, d, lsv, lendsv - lsv + 1)
      scaleRange(SSFMIN, anorm, e, lsv, lendsv - lsv)
    }
    if (jtot >= nmaxit) {
      throw new Error('lapackSymmetricEigen3: the QL/QR iteration did not converge (DSTEQR INFO > 0)')
    }
  }
  // Selection sort, ascending, swapping eigenvector columns.
  for (let ii = 2; ii <= N; ii++) {
    const i = ii - 1
    let k = i
    let p = d[i]!
    for (let j = ii; j <= N; j++) {
      if (d[j]! < p) { k = j; p = d[j]! }
    }
    if (k !== i) {
      d[k] = d[i]!
      d[i] = p
      for (let r = 0; r < N; r++) {
        const t = z[r + 3 * (i - 1)]!
        z[r + 3 * (i - 1)] = z[r + 3 * (k - 1)]!
        z[r + 3 * (k - 1)] = t
      }
    }
  }
}

/** DLASR('R', 'V', direct, N, count, c, s, Z(1, firstColumn)): plane rotations applied to adjacent columns. */
function applyRotations(
  z: Float64Array, count: number, work: Float64Array, cStart: number, sStart: number, firstColumn: number,
  direct: 'forward' | 'backward',
): void {
  const rotate = (j: number): void => {
    const ctemp = work[cStart + j - 1]!, stemp = work[sStart + j - 1]!
    if (ctemp === 1 && stemp === 0) return
    const left = 3 * (firstColumn + j - 2), right = left + 3
    for (let i = 0; i < N; i++) {
      const temp = z[right + i]!
      z[right + i] = ctemp * temp - stemp * z[left + i]!
      z[left + i] = stemp * temp + ctemp * z[left + i]!
    }
  }
  if (direct === 'forward') for (let j = 1; j <= count - 1; j++) rotate(j)
  else for (let j = count - 1; j >= 1; j--) rotate(j)
}

/** DLAEV2: eigen-decomposition of [[a, b], [b, c]]; (cs1, sn1) is the unit eigenvector of rt1. */
function symmetricEigen2(a: number, b: number, c: number): { rt1: number, rt2: number, cs1: number, sn1: number } {
  const sm = a + c
  const df = a - c
  const adf = Math.abs(df)
  const tb = b + b
  const ab = Math.abs(tb)
  let acmx: number, acmn: number
  if (Math.abs(a) > Math.abs(c)) { acmx = a; acmn = c } else { acmx = c; acmn = a }
  let rt: number
  if (adf > ab) rt = adf * Math.sqrt(1 + (ab / adf) * (ab / adf))
  else if (adf < ab) rt = ab * Math.sqrt(1 + (adf / ab) * (adf / ab))
  else rt = ab * Math.sqrt(2)
  let rt1: number, rt2: number, sgn1: number
  if (sm < 0) {
    rt1 = 0.5 * (sm - rt)
    sgn1 = -1
    rt2 = (acmx / rt1) * acmn - (b / rt1) * b
  } else if (sm > 0) {
    rt1 = 0.5 * (sm + rt)
    sgn1 = 1
    rt2 = (acmx / rt1) * acmn - (b / rt1) * b
  } else {
    rt1 = 0.5 * rt
    rt2 = -0.5 * rt
    sgn1 = 1
  }
  let cs: number, sgn2: number
  if (df >= 0) { cs = df + rt; sgn2 = 1 } else { cs = df - rt; sgn2 = -1 }
  const acs = Math.abs(cs)
  let cs1: number, sn1: number
  if (acs > ab) {
    const ct = -tb / cs
    sn1 = 1 / Math.sqrt(1 + ct * ct)
    cs1 = ct * sn1
  } else if (ab === 0) {
    cs1 = 1
    sn1 = 0
  } else {
    const tn = -cs / tb
    cs1 = 1 / Math.sqrt(1 + tn * tn)
    sn1 = tn * cs1
  }
  if (sgn1 === sgn2) {
    const tn = cs1
    cs1 = -sn1
    sn1 = tn
  }
  return { rt1, rt2, cs1, sn1 }
}

// DLARTG as in LAPACK ≤ 3.9 (the version OpenBLAS 0.3.18 ships): r = sqrt(f² + g²), cs = f/r, sn = g/r, with
// power-of-two rescaling far from 1 and r made positive-signed with f when |f| > |g|.
const SAFMN2 = 2 ** Math.trunc(Math.log(SAFMIN / EPS) / Math.log(2) / 2)
const SAFMX2 = 1 / SAFMN2

function givens(f: number, g: number): { c: number, s: number, r: number } {
  if (g === 0) return { c: 1, s: 0, r: f }
  if (f === 0) return { c: 0, s: 1, r: g }
  const scale = Math.max(Math.abs(f), Math.abs(g))
  let { c, s, r } = scale >= SAFMX2
    ? rescaledRotation(f, g, SAFMN2, SAFMX2, (m) => m >= SAFMX2)
    : scale <= SAFMN2
      ? rescaledRotation(f, g, SAFMX2, SAFMN2, (m) => m <= SAFMN2)
      : rotationOf(f, g)
  if (Math.abs(f) > Math.abs(g) && c < 0) {
    c = -c
    s = -s
    r = -r
  }
  return { c, s, r }
}

function rotationOf(f1: number, g1: number): { c: number, s: number, r: number } {
  const r = Math.sqrt(f1 * f1 + g1 * g1)
  return { c: f1 / r, s: g1 / r, r }
}

/** DLARTG's rescaling loop: scale f, g by `factor` until `outside` no longer holds, then undo it on r. */
function rescaledRotation(
  f: number, g: number, factor: number, undo: number, outside: (scale: number) => boolean,
): { c: number, s: number, r: number } {
  let f1 = f, g1 = g, count = 0
  do {
    count++
    f1 = f1 * factor
    g1 = g1 * factor
  } while (outside(Math.max(Math.abs(f1), Math.abs(g1))))
  const rotation = rotationOf(f1, g1)
  for (let i = 0; i < count; i++) rotation.r = rotation.r * undo
  return rotation
}

/** DLAPY2: sqrt(x² + y²) without destructive overflow. */
function pythagoras(x: number, y: number): number {
  const xa = Math.abs(x), ya = Math.abs(y)
  const w = Math.max(xa, ya), z = Math.min(xa, ya)
  if (z === 0) return w
  return w * Math.sqrt(1 + (z / w) * (z / w))
}

/** Fortran SIGN(a, b): |a| with the sign bit of b. */
function fortranSign(a: number, b: number): number {
  const negative = b < 0 || Object.is(b, -0)
  return negative ? -Math.abs(a) : Math.abs(a)
}

/** DLANST('M'): the largest |entry| of the tridiagonal block. */
function maxAbs(d: Float64Array, dStart: number, dCount: number, e: Float64Array, eStart: number, eCount: number): number {
  let anorm = Math.abs(d[dStart + dCount - 1]!)
  for (let i = 0; i < dCount - 1; i++) anorm = Math.max(anorm, Math.abs(d[dStart + i]!))
  for (let i = 0; i < eCount; i++) anorm = Math.max(anorm, Math.abs(e[eStart + i]!))
  return anorm
}

/** DLASCL('G'): multiply a range by cto/cfrom in steps that cannot over- or underflow. */
function scaleRange(cfrom: number, cto: number, values: Float64Array, start: number, count: number): void {
  const smlnum = SAFMIN
  const bignum = 1 / smlnum
  let cfromc = cfrom, ctoc = cto
  let done = false
  while (!done) {
    const cfrom1 = cfromc * smlnum
    let mul: number
    if (cfrom1 === cfromc) {
      mul = ctoc / cfromc
      done = true
    } else {
      const cto1 = ctoc / bignum
      if (cto1 === ctoc) {
        mul = ctoc
        done = true
        cfromc = 1
      } else if (Math.abs(cfrom1) > Math.abs(ctoc) && ctoc !== 0) {
        mul = smlnum
        cfromc = cfrom1
      } else if (Math.abs(cto1) > Math.abs(cfromc)) {
        mul = bignum
        ctoc = cto1
      } else {
        mul = ctoc / cfromc
        done = true
        if (mul === 1) return
      }
    }
    for (let i = 0; i < count; i++) values[start + i] = values[start + i]! * mul
  }
}

// ---- DORMTR → DORM2R: apply Q = H(1) H(2) to Z (rows 2..3) -------------------------------------------------

function applyReflectors(a: Float64Array, tau: Float64Array, z: Float64Array): void {
  // H(2) has length 1, so tau(2) = 0 and it is the identity; H(1) has v = (1, A(3,1)) acting on rows 2..3.
  for (let i = N - 1; i >= 1; i--) {
    const taui = tau[i]!
    if (taui === 0) continue
    const rows = N - i // reflector length
    if (rows !== 2) throw new Error('applyReflectors: only reflectors of length 2 occur for 3×3 matrices')
    const v = [1, a[(i + 1) + 3 * (i - 1)]!]
    const firstRow = i // 0-based row of Z where the reflector starts
    // DLARF: trailing zeros of v and trailing zero columns of C are skipped.
    let lastv = rows
    while (lastv > 0 && v[lastv - 1] === 0) lastv--
    const c = (r: number, col: number): number => z[firstRow + r + 3 * col]!
    let lastc = 0
    if (lastv > 0) {
      if (c(0, N - 1) !== 0 || c(lastv - 1, N - 1) !== 0) {
        lastc = N
      } else {
        scan: for (let col = N - 1; col >= 0; col--) {
          for (let r = 0; r < lastv; r++) if (c(r, col) !== 0) { lastc = col + 1; break scan }
        }
      }
    }
    if (lastv === 0) continue
    // DGEMV('T'): work = Cᵀ v, by the kernel's pairing: fma(c₀, v₀, c₁·v₁).
    const work = new Float64Array(lastc)
    for (let col = 0; col < lastc; col++) {
      work[col] = lastv === 2 ? fusedMultiplyAdd(c(0, col), v[0]!, c(1, col) * v[1]!) : c(0, col) * v[0]!
    }
    // DGER: C := C − tau · v workᵀ.
    for (let col = 0; col < lastc; col++) {
      const t = -taui * work[col]!
      for (let r = 0; r < lastv; r++) {
        const k = firstRow + r + 3 * col
        z[k] = z[k]! + t * v[r]!
      }
    }
  }
}
