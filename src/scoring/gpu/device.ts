// The contract between the lockstep scorer and a nearest-neighbour device (a GPU page, or the float32 emulation in
// tests): batched float32 candidate searches over uploaded clouds; no certification, no scoring here.

/**
 * One group of a batch: every point of cloud `source`, moved by each of `affines.length / 12` float32 affine maps
 * (12 numbers per map: row-major 3×3 A, then b; x = A·s + b), searched against every point of cloud `target`.
 */
export interface NearestGroup {
  source: number
  target: number
  affines: Float32Array
}

/**
 * A group's answers, map-major: for map k and source point i (tree order), entry k·n + i holds the GPU's nearest
 * target index (as a float32, exact below 2^24) and its float32 squared distance to the nearest OTHER target point
 * (GPU_NO_CANDIDATE when there is none).
 */
export interface NearestAnswers {
  index: Float32Array
  second: Float32Array
}

/** A place that runs batched brute-force nearest searches in float32. */
export interface NearestDevice {
  /** What runs the searches, e.g. the WebGL renderer string (`SwiftShader …`, `NVIDIA …`) or `float32 emulation`. */
  readonly renderer: string
  /** gpu.js's mode on that renderer (`gpu`, `webgl2`, `cpu`, …) or `emulation`; see classifyRenderer. */
  readonly mode: string
  /** Uploads a flat xyz float32 cloud; returns its id for later groups. */
  upload(cloud: Float32Array): Promise<number>
  /** Frees clouds no longer needed. */
  release(ids: readonly number[]): Promise<void>
  /** Runs every group of the batch in one round trip; answers in group order. */
  nearest(groups: readonly NearestGroup[]): Promise<NearestAnswers[]>
  close(): Promise<void>
}

/** Most points in one cloud: indices travel as float32, which is exact below 2^24. */
export const MAX_DEVICE_CLOUD_POINTS = 1 << 24
