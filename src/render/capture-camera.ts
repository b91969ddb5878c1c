// The agent camera of capture_scene (§2.7, §8): fixed intrinsics, Z up, placed from a CameraState; no rendering.
import { PerspectiveCamera } from 'three'
import { CAPTURE_RENDER, type CameraState } from '../world/index.ts'
import { CAPTURE_CAMERA_UP } from './capture-style.ts'
import { RenderError } from './errors.ts'

/** Smallest allowed |position − target| of an agent camera (§2.6 camera validity). */
export const MIN_CAMERA_DISTANCE = 0.001

/** A perspective camera with the capture intrinsics: fovy 38°, 4:3, near 0.01, far 1000, up +Z. */
export function createCaptureCamera(): PerspectiveCamera {
  const camera = new PerspectiveCamera(CAPTURE_RENDER.fovy, CAPTURE_RENDER.width / CAPTURE_RENDER.height, CAPTURE_RENDER.near, CAPTURE_RENDER.far)
  camera.up.set(CAPTURE_CAMERA_UP[0], CAPTURE_CAMERA_UP[1], CAPTURE_CAMERA_UP[2])
  return camera
}

/**
 * Moves `camera` to `state.position` looking at `state.target`. Throws `RenderError` when a coordinate
 * is not finite or the two points are closer than `MIN_CAMERA_DISTANCE` (the view would be undefined).
 */
export function aimCaptureCamera(camera: PerspectiveCamera, state: CameraState): PerspectiveCamera {
  const [px, py, pz] = state.position
  const [tx, ty, tz] = state.target
  const isFinite = [px, py, pz, tx, ty, tz].every(Number.isFinite)
  if (!isFinite || Math.hypot(px - tx, py - ty, pz - tz) < MIN_CAMERA_DISTANCE) {
    throw new RenderError('RENDER_CAMERA_INVALID', `camera position ${JSON.stringify(state.position)} / target ${JSON.stringify(state.target)} cannot be rendered: coordinates must be finite and at least ${MIN_CAMERA_DISTANCE} apart`)
  }
  camera.position.set(px, py, pz)
  camera.lookAt(tx, ty, tz)
  camera.updateMatrixWorld()
  return camera
}
