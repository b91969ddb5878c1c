// The capture_scene renderer: three.js WebGL2 into an offscreen 1024×768 canvas, PNG out (§8); no tool logic.
import type { MjModel } from '@mujoco/mujoco'
import { REVISION, type PerspectiveCamera, WebGLRenderer } from 'three'
import { CAPTURE_RENDER, type RenderView, type SceneRenderer } from '../world/index.ts'
import { aimCaptureCamera, createCaptureCamera } from './capture-camera.ts'
import { type CaptureScene, createCaptureScene } from './capture-scene.ts'
import { RenderError } from './errors.ts'
import { applyGeomTransforms } from './geom-transforms.ts'
import { type CaptureCanvas, encodeCanvasPng } from './png-output.ts'

/** Recorded as `producer.renderer` on capture calls: `three-r<three.js revision>/webgl2`. */
export const THREE_RENDERER_NAME = `three-r${REVISION}/webgl2`

export interface ThreeSceneRendererOptions {
  /**
   * Where to draw; default a new `OffscreenCanvas(1024, 768)`, so page layout, theme and viewport never
   * touch captures. Pass a detached `<canvas>` where OffscreenCanvas lacks WebGL2.
   */
  canvas?: CaptureCanvas
}

/**
 * A `SceneRenderer` drawing the model's geoms at their live poses through the agent camera. The WebGL
 * context is created on the first capture; the scene is built once per compiled model and rebuilt only
 * when a view brings another model. Each capture renders once and encodes the frame as PNG.
 */
export function createThreeSceneRenderer(options: ThreeSceneRendererOptions = {}): SceneRenderer {
  return new ThreeSceneRenderer(options.canvas)
}

class ThreeSceneRenderer implements SceneRenderer {
  readonly name = THREE_RENDERER_NAME
  private renderer: WebGLRenderer | undefined
  private readonly camera: PerspectiveCamera = createCaptureCamera()
  private built: { model: MjModel, content: CaptureScene } | undefined
  private isDisposed = false

  private readonly canvas: CaptureCanvas | undefined

  constructor(canvas: CaptureCanvas | undefined) {
    this.canvas = canvas
  }

  async capture(view: RenderView): Promise<Uint8Array> {
    if (this.isDisposed) throw new RenderError('RENDER_DISPOSED', 'capture() was called on a disposed renderer; create a new one with createThreeSceneRenderer()')
    const renderer = this.renderer ?? this.createRenderer()
    const content = this.sceneFor(view.model)
    aimCaptureCamera(this.camera, view.camera)
    // Read the views now: they point into the wasm heap and are stale after it grows.
    applyGeomTransforms(content.meshes, view.data.geom_xpos as Float64Array, view.data.geom_xmat as Float64Array)
    renderer.render(content.scene, this.camera)
    return encodeCanvasPng(renderer.domElement)
  }

  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    this.built?.content.dispose()
    this.built = undefined
    this.renderer?.dispose()
    this.renderer?.forceContextLoss()
    this.renderer = undefined
  }

  private createRenderer(): WebGLRenderer {
    const canvas = this.canvas ?? new OffscreenCanvas(CAPTURE_RENDER.width, CAPTURE_RENDER.height)
    let renderer: WebGLRenderer
    try {
      renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true })
    } catch (cause) {
      throw new RenderError('RENDER_WEBGL_UNAVAILABLE', `capture_scene needs WebGL2 but the page could not create a context (${String(cause)}); in headless Chromium do not pass --disable-software-rasterizer (SwiftShader provides WebGL2)`, { cause })
    }
    renderer.setPixelRatio(CAPTURE_RENDER.pixelRatio)
    // updateStyle false: an offscreen or detached canvas has no layout to size.
    renderer.setSize(CAPTURE_RENDER.width, CAPTURE_RENDER.height, false)
    // As the reference: enabled, but no light casts shadows, so no shadow pass runs.
    renderer.shadowMap.enabled = true
    this.renderer = renderer
    return renderer
  }

  private sceneFor(model: MjModel): CaptureScene {
    if (this.built?.model === model) return this.built.content
    const content = createCaptureScene(model)
    this.built?.content.dispose()
    this.built = { model, content }
    return content
  }
}
