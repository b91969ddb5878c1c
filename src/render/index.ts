// Public entry of the capture renderer (page code): three.js scene from a compiled MuJoCo model, PNG captures.
export { createThreeSceneRenderer, THREE_RENDERER_NAME, type ThreeSceneRendererOptions } from './three-scene-renderer.ts'
export { createCaptureScene, type CaptureScene } from './capture-scene.ts'
export { createGeomGeometry, GEOM_TYPE } from './geom-geometry.ts'
export { applyGeomTransforms } from './geom-transforms.ts'
export { aimCaptureCamera, createCaptureCamera, MIN_CAMERA_DISTANCE } from './capture-camera.ts'
export { encodeCanvasPng, type CaptureCanvas } from './png-output.ts'
export { threeQuaternionFromWxyz } from './quaternion-order.ts'
export {
  CAPTURE_BACKGROUND,
  CAPTURE_CAMERA_UP,
  CAPTURE_DIRECTIONAL_LIGHT,
  CAPTURE_HEMISPHERE_LIGHT,
  CAPTURE_MATERIAL,
  GEOM_SEGMENTS,
  INFINITE_PLANE_EDGE,
} from './capture-style.ts'
export { RENDER_ERROR_CODES, RenderError, type RenderErrorCode } from './errors.ts'
