// The mjSTATE_INTEGRATION layout of benchmark scenes (N world-parented free bodies, §2.6) and the pose shortcut of scoring.md §3.3; no MuJoCo.
import { EpisodeError } from './errors.ts'

/** Values per part in qpos: position xyz then quaternion wxyz. */
const QPOS_PER_PART = 7
/** stateSize = 1 + 7N + 6N + 6N + 6N + 6(N + 1) = 31N + 7. */
const STATE_VALUES_PER_PART = 31
const STATE_FIXED_VALUES = 7
/** Below this norm a quaternion is treated as zero (the contract's |q| < 1e-8 rule). */
const MIN_QUATERNION_NORM = 1e-8

/** `stateSize` of a benchmark scene of `partCount` parts: 31N + 7. */
export function benchmarkStateSize(partCount: number): number {
  assertPartCount(partCount)
  return STATE_VALUES_PER_PART * partCount + STATE_FIXED_VALUES
}

/** The part count N of a benchmark `stateSize`, or `undefined` when the size is not 31N + 7 for N ≥ 1. */
export function benchmarkPartCount(stateSize: number): number | undefined {
  const n = (stateSize - STATE_FIXED_VALUES) / STATE_VALUES_PER_PART
  return Number.isInteger(n) && n >= 1 ? n : undefined
}

/** Body name of part `partNumber` (1-based): `part-0001`. */
export function benchmarkPartId(partNumber: number): string {
  return `part-${String(partNumber).padStart(4, '0')}`
}

/** Offset of part `partNumber`'s (1-based) position x in the integration row: 1 + 7(i − 1). */
export function partPositionOffset(partNumber: number): number {
  assertPartCount(partNumber)
  return 1 + QPOS_PER_PART * (partNumber - 1)
}

/** Offset of part `partNumber`'s (1-based) quaternion w (then x, y, z): 4 + 7(i − 1). */
export function partQuaternionOffset(partNumber: number): number {
  return partPositionOffset(partNumber) + 3
}

/** Body poses of every part, flat and part-major (part i at 3i, 4i and 9i). */
export interface BenchmarkPoses {
  partCount: number
  /** Simulation time (s), integration[0]. */
  time: number
  /** Body origin xyz per part (world frame). */
  positions: Float64Array
  /** Normalized quaternion wxyz per part. */
  quaternions: Float64Array
  /** Rotation matrix per part, 3×3 row-major. */
  rotations: Float64Array
}

/**
 * Reads each part's body pose straight from an integration row (scoring.md §3.3 shortcut): p_i from qpos,
 * R_i from the normalized qpos quaternion, as `mj_kinematics` does for world-parented free bodies.
 * Throws `EPISODE_STATE_LAYOUT` when the row is not 31N + 7 long or a quaternion is (near) zero or non-finite.
 */
export function readBenchmarkPoses(integration: Float64Array, partCount: number): BenchmarkPoses {
  const expected = benchmarkStateSize(partCount)
  if (integration.length !== expected) {
    throw new EpisodeError('EPISODE_STATE_LAYOUT', `integration has ${integration.length} values but a benchmark scene of ${partCount} parts has 31N + 7 = ${expected}; pass the part count of the episode's model.`)
  }
  const positions = new Float64Array(3 * partCount)
  const quaternions = new Float64Array(4 * partCount)
  const rotations = new Float64Array(9 * partCount)
  for (let i = 0; i < partCount; i++) {
    const p = 1 + QPOS_PER_PART * i
    positions[3 * i] = integration[p] ?? 0
    positions[3 * i + 1] = integration[p + 1] ?? 0
    positions[3 * i + 2] = integration[p + 2] ?? 0
    const qw = integration[p + 3] ?? 0
    const qx = integration[p + 4] ?? 0
    const qy = integration[p + 5] ?? 0
    const qz = integration[p + 6] ?? 0
    const norm = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
    if (!(norm >= MIN_QUATERNION_NORM) || !Number.isFinite(norm)) {
      throw new EpisodeError('EPISODE_STATE_LAYOUT', `part ${benchmarkPartId(i + 1)} has quaternion [${qw}, ${qx}, ${qy}, ${qz}] (norm ${norm}); a body quaternion must be finite and non-zero.`)
    }
    const w = qw / norm
    const x = qx / norm
    const y = qy / norm
    const z = qz / norm
    quaternions[4 * i] = w
    quaternions[4 * i + 1] = x
    quaternions[4 * i + 2] = y
    quaternions[4 * i + 3] = z
    writeRotation(rotations, 9 * i, w, x, y, z)
  }
  return { partCount, time: integration[0] ?? 0, positions, quaternions, rotations }
}

// Unit quaternion (w, x, y, z) → row-major rotation matrix, the formula of MuJoCo's mju_quat2Mat.
function writeRotation(out: Float64Array, offset: number, w: number, x: number, y: number, z: number): void {
  out[offset] = 1 - 2 * (y * y + z * z)
  out[offset + 1] = 2 * (x * y - w * z)
  out[offset + 2] = 2 * (x * z + w * y)
  out[offset + 3] = 2 * (x * y + w * z)
  out[offset + 4] = 1 - 2 * (x * x + z * z)
  out[offset + 5] = 2 * (y * z - w * x)
  out[offset + 6] = 2 * (x * z - w * y)
  out[offset + 7] = 2 * (y * z + w * x)
  out[offset + 8] = 1 - 2 * (x * x + y * y)
}

function assertPartCount(n: number): void {
  if (!Number.isInteger(n) || n < 1) {
    throw new EpisodeError('EPISODE_STATE_LAYOUT', `part count/number ${n} is not a positive integer; parts are numbered from 1.`)
  }
}
