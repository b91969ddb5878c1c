// The small linear-algebra steps of the reference PCA frame in the exact arithmetic numpy 1.24.4 performs them
// (its wheel's OpenBLAS 0.3.21 on x86-64 with FMA), so that pca.ts reproduces the reference's last bits.
// Each rule was measured against that numpy (scripts/oracle/pca_oracle.py; checked in
// test/unit/scoring/reference-numerics.test.ts):
//   - `X.mean(axis=0)`: rows added in order, then divided by n;
//   - `X.T @ X`: numpy hands it to dsyrk, whose kernel accumulates each entry as an FMA chain over the points,
//     in K-blocks of at most 384 (a remainder between 384 and 768 is halved, rounded up) added together;
//   - `U @ U.T` (projector): an FMA chain over the group's columns;
//   - `P @ x` (3×3 times 3): dgemv pairs the first two products as fma(p₀, x₀, p₁·x₁), then fuses the third;
//   - `a @ b` and `np.linalg.norm` of 3-vectors: an FMA chain (norm = sqrt of it);
//   - `np.linalg.norm(X, axis=1)`: squares summed left to right, no FMA.
import { fusedMultiplyAdd as fma } from './fma.ts'

/** OpenBLAS's dsyrk K-blocking (GEMM_Q for this kernel family). */
const SYRK_BLOCK = 384

/** numpy `X.mean(axis=0)` of the flat xyz cloud. */
export function centroid(points: ArrayLike<number>, n: number): [number, number, number] {
  let cx = 0, cy = 0, cz = 0
  for (let i = 0; i < n; i++) {
    cx = cx + points[3 * i]!
    cy = cy + points[3 * i + 1]!
    cz = cz + points[3 * i + 2]!
  }
  return [cx / n, cy / n, cz / n]
}

/** numpy `X̃.T @ X̃` with X̃ = X − center, as a row-major symmetric 3×3. */
export function scatterMatrix(points: ArrayLike<number>, n: number, center: readonly number[]): Float64Array {
  const s = new Float64Array(9)
  let start = 0
  let blockIndex = 0
  while (start < n) {
    let size = n - start
    if (size >= 2 * SYRK_BLOCK) size = SYRK_BLOCK
    else if (size > SYRK_BLOCK) size = (size + 1) >> 1
    const block = blockChain(points, start, start + size, center)
    for (let k = 0; k < 9; k++) s[k] = blockIndex === 0 ? block[k]! : s[k]! + block[k]!
    start += size
    blockIndex++
  }
  return s
}

function blockChain(points: ArrayLike<number>, from: number, to: number, center: readonly number[]): Float64Array {
  const cx = center[0]!, cy = center[1]!, cz = center[2]!
  let x = points[3 * from]! - cx, y = points[3 * from + 1]! - cy, z = points[3 * from + 2]! - cz
  let sxx = x * x, sxy = x * y, sxz = x * z, syy = y * y, syz = y * z, szz = z * z
  for (let i = from + 1; i < to; i++) {
    x = points[3 * i]! - cx; y = points[3 * i + 1]! - cy; z = points[3 * i + 2]! - cz
    sxx = fma(x, x, sxx); sxy = fma(x, y, sxy); sxz = fma(x, z, sxz)
    syy = fma(y, y, syy); syz = fma(y, z, syz); szz = fma(z, z, szz)
  }
  return new Float64Array([sxx, sxy, sxz, sxy, syy, syz, sxz, syz, szz])
}

/** numpy `V[:, start:end] @ V[:, start:end].T` for the row-major 3×3 `vectors`. */
export function projector(vectors: Float64Array, start: number, end: number): Float64Array {
  const p = new Float64Array(9)
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      let s = vectors[3 * i + start]! * vectors[3 * j + start]!
      for (let k = start + 1; k < end; k++) s = fma(vectors[3 * i + k]!, vectors[3 * j + k]!, s)
      p[3 * i + j] = s
    }
  }
  return p
}

/** numpy `P @ x` for a row-major 3×3 and a 3-vector. */
export function matVec3(p: Float64Array, x: readonly number[]): [number, number, number] {
  const row = (r: number): number => fma(p[3 * r + 2]!, x[2]!, fma(p[3 * r]!, x[0]!, p[3 * r + 1]! * x[1]!))
  return [row(0), row(1), row(2)]
}

/** numpy `a @ b` for 3-vectors. */
export function dot3(a: readonly number[], b: readonly number[]): number {
  return fma(a[2]!, b[2]!, fma(a[1]!, b[1]!, a[0]! * b[0]!))
}

/** numpy `np.linalg.norm(v)` for a 3-vector. */
export function norm3(v: readonly number[]): number {
  return Math.sqrt(dot3(v, v))
}

/** numpy `v - d * a` for 3-vectors (a product, then a difference: no FMA in numpy's elementwise ufuncs). */
export function minusScaled3(v: readonly number[], d: number, a: readonly number[]): number[] {
  return [v[0]! - d * a[0]!, v[1]! - d * a[1]!, v[2]! - d * a[2]!]
}

/** numpy `v / s` (a division per component, not a multiplication by 1/s). */
export function divide3(v: readonly number[], s: number): number[] {
  return [v[0]! / s, v[1]! / s, v[2]! / s]
}

/** One entry of numpy `np.linalg.norm(X, axis=1)`. */
export function rowNorm(x: number, y: number, z: number): number {
  return Math.sqrt((x * x + y * y) + z * z)
}
