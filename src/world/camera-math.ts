// Agent-camera maths (environment.md §4.8): camera axes and the move_camera orbit/zoom/pan, float64; no MuJoCo, no I/O.
// Follows three.js `Vector3` / `Spherical` conventions so results match the reference runtime.
import { DEG2RAD } from './rotation-math.ts'
import type { CameraState } from './renderer.ts'

/** Below this squared length forward × Z is treated as parallel (camera looking straight up or down). */
const PARALLEL_EPSILON_SQ = 1e-10
/** Polar-angle clamp of move_camera (rad), keeping the camera off the poles. */
const MIN_POLAR_RAD = 0.02
/** Smallest orbit radius after a zoom. */
const MIN_CAMERA_DISTANCE = 0.01
/** Frames require |position − target| ≥ this (§2.6). */
export const MIN_CAMERA_SEPARATION = 0.001

/** right, up, forward as rows of a row-major 3×3 (`out[0..2]` right, `[3..5]` up, `[6..8]` forward). */
export function cameraAxes(out: Float64Array, camera: CameraState): Float64Array {
  let fx = camera.target[0] - camera.position[0]
  let fy = camera.target[1] - camera.position[1]
  let fz = camera.target[2] - camera.position[2]
  ;[fx, fy, fz] = normalized(fx, fy, fz)
  // right = forward × (0, 0, 1); fall back to forward × (0, 1, 0) when looking along Z.
  let rx = fy, ry = -fx, rz = 0
  if (rx * rx + ry * ry + rz * rz < PARALLEL_EPSILON_SQ) {
    rx = -fz
    ry = 0
    rz = fx
  }
  ;[rx, ry, rz] = normalized(rx, ry, rz)
  const [ux, uy, uz] = normalized(ry * fz - rz * fy, rz * fx - rx * fz, rx * fy - ry * fx)
  out[0] = rx; out[1] = ry; out[2] = rz
  out[3] = ux; out[4] = uy; out[5] = uz
  out[6] = fx; out[7] = fy; out[8] = fz
  return out
}

/** `[a, b, c]` in camera space → a·right + b·up + c·forward (world). */
export function cameraToWorld(axes: Float64Array, a: number, b: number, c: number): [number, number, number] {
  return [
    a * (axes[0] ?? 0) + b * (axes[3] ?? 0) + c * (axes[6] ?? 0),
    a * (axes[1] ?? 0) + b * (axes[4] ?? 0) + c * (axes[7] ?? 0),
    a * (axes[2] ?? 0) + b * (axes[5] ?? 0) + c * (axes[8] ?? 0),
  ]
}

/** move_camera input; every field optional (degrees for yaw/pitch, a multiplier for zoom, world units for pans). */
export interface CameraMove {
  yaw?: number | undefined
  pitch?: number | undefined
  zoom?: number | undefined
  right?: number | undefined
  up?: number | undefined
}

/** The §4.8 algorithm: spherical orbit in three.js's Y-up frame, then a pan along the pre-move right/up axes. */
export function moveCamera(camera: CameraState, move: CameraMove): CameraState {
  const ox = camera.position[0] - camera.target[0]
  const oy = camera.position[1] - camera.target[1]
  const oz = camera.position[2] - camera.target[2]
  // Z-up → Y-up: rotate −90° about X, (x, y, z) → (x, z, −y).
  const yx = ox, yy = oz, yz = -oy
  let radius = Math.sqrt(yx * yx + yy * yy + yz * yz)
  let theta = 0
  let phi = 0
  if (radius !== 0) {
    theta = Math.atan2(yx, yz)
    phi = Math.acos(clamp(yy / radius, -1, 1))
  }
  theta += (move.yaw ?? 0) * DEG2RAD
  phi = clamp(phi + (move.pitch ?? 0) * DEG2RAD, MIN_POLAR_RAD, Math.PI - MIN_POLAR_RAD)
  radius = Math.max(MIN_CAMERA_DISTANCE, radius * (move.zoom ?? 1))
  const sinPhiRadius = Math.sin(phi) * radius
  const sx = sinPhiRadius * Math.sin(theta)
  const sy = Math.cos(phi) * radius
  const sz = sinPhiRadius * Math.cos(theta)
  // Back to Z-up: rotate +90° about X, (x, y, z) → (x, −z, y).
  const nx = sx, ny = -sz, nz = sy
  const axes = cameraAxes(new Float64Array(9), camera)
  const panRight = move.right ?? 0
  const panUp = move.up ?? 0
  const target: [number, number, number] = [
    camera.target[0] + (axes[0] ?? 0) * panRight + (axes[3] ?? 0) * panUp,
    camera.target[1] + (axes[1] ?? 0) * panRight + (axes[4] ?? 0) * panUp,
    camera.target[2] + (axes[2] ?? 0) * panRight + (axes[5] ?? 0) * panUp,
  ]
  return { position: [target[0] + nx, target[1] + ny, target[2] + nz], target }
}

/** |position − target|. */
export function cameraDistance(camera: CameraState): number {
  return Math.hypot(camera.position[0] - camera.target[0], camera.position[1] - camera.target[1], camera.position[2] - camera.target[2])
}

// three.js `Vector3.normalize`: divide by the length, or by 1 when the length is 0.
function normalized(x: number, y: number, z: number): [number, number, number] {
  const inverse = 1 / (Math.sqrt(x * x + y * y + z * z) || 1)
  return [x * inverse, y * inverse, z * inverse]
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value))
}
