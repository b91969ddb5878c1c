// The contract between the world runtime and a renderer for capture_scene (environment.md §8); no rendering here.
import type { MjData, MjModel } from '@mujoco/mujoco'

/** The agent camera as frames store it: world coordinates, +Z up, fixed intrinsics (§2.7, §8). */
export interface CameraState {
  position: [number, number, number]
  target: [number, number, number]
}

/** Fixed capture parameters; `capture_scene` results carry them as `render` (schema constants). */
export const CAPTURE_RENDER = { width: 1024, height: 768, pixelRatio: 1, fovy: 38, near: 0.01, far: 1000 } as const

/** What one capture sees: the compiled model and live data (geom poses current: `mj_forward` done). */
export interface RenderView {
  model: MjModel
  data: MjData
  camera: CameraState
}

/**
 * Renders the live scene through the agent camera into a 1024×768 PNG. A runtime without a renderer
 * answers `capture_scene` with `Unsupported capability: capture_scene`.
 */
export interface SceneRenderer {
  /** Recorded as the capture call's `producer.renderer`, e.g. `three-r187/webgl2`. */
  readonly name: string
  capture(view: RenderView): Promise<Uint8Array>
  dispose(): void
}
