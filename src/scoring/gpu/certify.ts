// Certifies a GPU float32 nearest-neighbour answer against the float64 CPU rule, or says it cannot; no search, no I/O.
//
// Why this is exact (scoring.md §12 item 6, §12a): the GPU reports, per query, an index j1 and s2 = its float32
// squared distance to the nearest point OTHER than j1. Let x be the float64 query the CPU objective computes and d_k
// the real distance from x to point k. The GPU worked on x̃ (its own float32 transform of the float32 source point)
// and p̃_k = fl32(p_k); with the bounds below, |x̃ − x| ≤ eQ and |p̃_k − p_k| ≤ eP, and its computed s̃_k satisfies
// s̃_k ≥ (1 − ΓD)·|x̃ − p̃_k|² − η. So for every k ≠ j1:
//   d_k ≥ |x̃ − p̃_k| − eQ − eP ≥ √(max(0, s2 − η)/(1 + ΓD)) − eQ − eP =: L
// (s2 ≤ s̃_k, and the bound is monotone in s̃). If the float64 distance to j1 satisfies √fl(d_j1²)·(1 + 1e-12) < L,
// then j1 is the unique real nearest point by a relative margin ≥ 1e-12, far above float64 rounding of the squared
// distances (≈ 6e-16 relative), so j1 is also the unique argmin of the float64 distances: exactly what KdTree.nearest
// returns, whatever its hint (the hint only breaks exact ties). Otherwise (a near-tie within the GPU's error, an
// exact tie, a garbage index, non-finite numbers) the caller runs the exact KD search instead. A wrong GPU answer can
// therefore cost time, never a different bit.
//
// The one premise: the device really computed over the uploaded clouds and maps (s2 is a minimum over every other
// point). A device that reads the wrong data breaks it; self-test.ts checks every answer on seeded clouds when a device
// opens, and lockstep.ts re-checks every SPOT_CHECK_STRIDE-th query against the KD search, failing with
// SCORING_GPU_UNTRUSTED. (gpu.js Array1D(3) inputs were ~1.8× faster on SwiftShader but misread texels at some cloud
// sizes, e.g. 2000 and 4096 points: the self-test catches exactly that, so the kernel keeps flat arrays.)
//
// Error model, deliberately pessimistic: WebGL does not promise IEEE float32 arithmetic, so every GPU operation is
// allowed a relative error of GPU_OP_ULP_ERROR = 2^-20 (16 float32 ulps) instead of 2^-24, and any value below
// FLUSH_ABS may be flushed to zero.

/** Relative error allowed per GPU float32 operation (16 ulps; IEEE would be 2^-24). */
export const GPU_OP_ULP_ERROR = 2 ** -20
/** Relative error of rounding a float64 to float32 on the CPU (IEEE round to nearest, exact bound). */
export const FLOAT32_ROUNDING = 2 ** -24
/**
 * Relative error bound of the GPU query x̃ = Ã·s̃ + b̃ per coordinate, against Σ|A_rc|·|s_c| + |b_r|: a length-4 dot
 * product (4 operations) plus the float32 rounding of A, b and s, doubled for safety.
 */
export const QUERY_RELATIVE_ERROR = 2 * (4 * GPU_OP_ULP_ERROR + 2 * FLOAT32_ROUNDING)
/** Relative error bound of the GPU squared distance from its own x̃ and p̃ (3 subtractions, 3 products, 2 sums), doubled. */
export const DISTANCE_RELATIVE_ERROR = 2 * 8 * GPU_OP_ULP_ERROR
/** Absolute slack on a GPU squared distance for flushed denormals (squares below ~1e-38 may become 0). */
export const FLUSH_ABS = 1e-35
/** Relative margin the float64 nearest distance must clear (covers float64 rounding of squares and square roots). */
export const CERTIFY_MARGIN = 1 + 1e-12
/** The GPU kernel's "no candidate" distance; a second distance at or above it certifies nothing. */
export const GPU_NO_CANDIDATE = 1e30

/**
 * Bound eQ on |x̃ − x| for every query of one job, where the GPU computes x̃_r = Σ_c A_rc·s_c + b_r in float32 from
 * `affine` (12 numbers: row-major A, then b, as float64 before rounding) and sources with |s_c| ≤ sourceAbsMax[c].
 */
export function queryErrorBound(affine: ArrayLike<number>, sourceAbsMax: ArrayLike<number>): number {
  let sum = 0
  for (let r = 0; r < 3; r++) {
    const e = QUERY_RELATIVE_ERROR * (
      Math.abs(affine[3 * r]!) * sourceAbsMax[0]! + Math.abs(affine[3 * r + 1]!) * sourceAbsMax[1]! +
      Math.abs(affine[3 * r + 2]!) * sourceAbsMax[2]! + Math.abs(affine[9 + r]!))
    sum += e * e
  }
  // A tiny absolute floor: float32 cannot represent coordinates below its smallest normal either.
  return Math.sqrt(sum) * (1 + 1e-6) + 1e-37
}

/** Bound eP on |p̃ − p| for every point of a cloud whose largest point norm is `maxNorm` (CPU float32 rounding). */
export function pointErrorBound(maxNorm: number): number {
  return FLOAT32_ROUNDING * maxNorm * (1 + 1e-6) + 1e-44
}

/** Per-axis largest |coordinate| of a flat xyz cloud, and its largest point norm. */
export function cloudBounds(cloud: ArrayLike<number>): { absMax: Float64Array; maxNorm: number } {
  const absMax = new Float64Array(3)
  let maxNormSq = 0
  for (let i = 0; i < cloud.length; i += 3) {
    const x = cloud[i]!, y = cloud[i + 1]!, z = cloud[i + 2]!
    if (Math.abs(x) > absMax[0]!) absMax[0] = Math.abs(x)
    if (Math.abs(y) > absMax[1]!) absMax[1] = Math.abs(y)
    if (Math.abs(z) > absMax[2]!) absMax[2] = Math.abs(z)
    const n2 = x * x + y * y + z * z
    if (n2 > maxNormSq) maxNormSq = n2
  }
  return { absMax, maxNorm: Math.sqrt(maxNormSq) * (1 + 1e-15) }
}

/**
 * Lower bound L on the real distance from the float64 query to every point other than the GPU's j1, from the GPU's
 * float32 second distance `second` and the error bounds (see the file header). 0 when nothing can be said.
 */
export function otherPointsLowerBound(second: number, errorBound: number): number {
  if (!(second < GPU_NO_CANDIDATE)) return 0
  const s = (second - FLUSH_ABS) / (1 + DISTANCE_RELATIVE_ERROR)
  if (!(s > 0)) return 0
  const bound = Math.sqrt(s) * (1 - 1e-15) - errorBound
  return bound > 0 ? bound : 0
}

/**
 * True when the float64 squared distance `distSq` of the query to the GPU's candidate proves the candidate is the
 * unique float64 nearest point, given `lower` = otherPointsLowerBound(...). False means: run the exact search.
 */
export function isCertified(distSq: number, lower: number): boolean {
  return Math.sqrt(distSq) * CERTIFY_MARGIN < lower
}
