// Rotation maths of rotate_objects (environment.md §4.9) in three.js double-precision semantics; no MuJoCo, no I/O.
// Quaternions are [w, x, y, z] (flat Float64Array, offset 0); the formulas follow three.js `Quaternion` /
// `Vector3.applyQuaternion` so replays agree bit for bit with the reference TypeScript runtime.

/** three.js `MathUtils.DEG2RAD`. */
export const DEG2RAD = Math.PI / 180

/** Writes the unit quaternion of a rotation by `angle` radians about the unit axis (`setFromAxisAngle`). Assumes a normalized axis. */
export function quaternionFromAxisAngle(out: Float64Array, ax: number, ay: number, az: number, angle: number): Float64Array {
  const half = angle / 2
  const s = Math.sin(half)
  out[0] = Math.cos(half)
  out[1] = ax * s
  out[2] = ay * s
  out[3] = az * s
  return out
}

/** out = a ⊗ b (Hamilton product; `out` may alias either input). */
export function multiplyQuaternions(out: Float64Array, a: Float64Array, b: Float64Array): Float64Array {
  const aw = a[0] ?? 1, ax = a[1] ?? 0, ay = a[2] ?? 0, az = a[3] ?? 0
  const bw = b[0] ?? 1, bx = b[1] ?? 0, by = b[2] ?? 0, bz = b[3] ?? 0
  out[1] = ax * bw + aw * bx + ay * bz - az * by
  out[2] = ay * bw + aw * by + az * bx - ax * bz
  out[3] = az * bw + aw * bz + ax * by - ay * bx
  out[0] = aw * bw - ax * bx - ay * by - az * bz
  return out
}

/** three.js `normalize`: multiplies by 1 / length; a zero quaternion becomes the identity (callers reject |q| < 1e-8 first). */
export function normalizeQuaternion(out: Float64Array): Float64Array {
  const w = out[0] ?? 0, x = out[1] ?? 0, y = out[2] ?? 0, z = out[3] ?? 0
  let length = Math.sqrt(x * x + y * y + z * z + w * w)
  if (length === 0) {
    out[0] = 1
    out[1] = 0
    out[2] = 0
    out[3] = 0
    return out
  }
  length = 1 / length
  out[1] = x * length
  out[2] = y * length
  out[3] = z * length
  out[0] = w * length
  return out
}

/** Euclidean norm of the quaternion at `offset`. */
export function quaternionNorm(q: ArrayLike<number>, offset = 0): number {
  const w = q[offset] ?? 0, x = q[offset + 1] ?? 0, y = q[offset + 2] ?? 0, z = q[offset + 3] ?? 0
  return Math.sqrt(w * w + x * x + y * y + z * z)
}

/**
 * The rotation of `rotate_objects`: R = R3 · R2 · R1 about the fixed (extrinsic) axes, angles in degrees,
 * composed by pre-multiplication and normalized (§4.7). `axes` is row-major 3×3: row i is axis i (unit).
 */
export function composeAxisRotations(out: Float64Array, axes: Float64Array, anglesDeg: readonly number[]): Float64Array {
  out[0] = 1
  out[1] = 0
  out[2] = 0
  out[3] = 0
  const step = new Float64Array(4)
  for (let i = 0; i < 3; i++) {
    quaternionFromAxisAngle(step, axes[3 * i] ?? 0, axes[3 * i + 1] ?? 0, axes[3 * i + 2] ?? 0, (anglesDeg[i] ?? 0) * DEG2RAD)
    multiplyQuaternions(out, step, out)
  }
  return normalizeQuaternion(out)
}

/** Rotates the 3-vector at `offset` of `v` in place by the unit quaternion q (three.js `applyQuaternion`). */
export function applyQuaternionToVector(v: Float64Array, offset: number, q: Float64Array): Float64Array {
  const vx = v[offset] ?? 0, vy = v[offset + 1] ?? 0, vz = v[offset + 2] ?? 0
  const qw = q[0] ?? 1, qx = q[1] ?? 0, qy = q[2] ?? 0, qz = q[3] ?? 0
  const tx = 2 * (qy * vz - qz * vy)
  const ty = 2 * (qz * vx - qx * vz)
  const tz = 2 * (qx * vy - qy * vx)
  v[offset] = vx + qw * tx + qy * tz - qz * ty
  v[offset + 1] = vy + qw * ty + qz * tx - qx * tz
  v[offset + 2] = vz + qw * tz + qx * ty - qy * tx
  return v
}
