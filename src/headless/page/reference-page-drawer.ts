// Draws reference pages in the page: compiles the world, poses the parts, renders the capture scene, adds the caption.
// Page code: no `node:` imports. Request parsing and the window entry live in reference-page.ts.
import type { MjData, MjModel } from '@mujoco/mujoco'
import { type PerspectiveCamera, WebGLRenderer } from 'three'
import {
  aimCaptureCamera,
  applyGeomTransforms,
  type CaptureScene,
  createCaptureCamera,
  createCaptureScene,
  encodeCanvasPng,
  RenderError,
} from '../../render/index.ts'
import { MJ_STATE_INTEGRATION } from '../../episode/index.ts'
import { CAPTURE_RENDER, compileWorld, type Mujoco } from '../../world/index.ts'
import { base64ToBytes } from '../headless-page-messages.ts'
import type { ReferencePageRequest, WorldMember } from '../reference-page-messages.ts'
import { assembledIntegration } from './assembled-state.ts'
import { type GeomRole, geomRoles } from './geom-roles.ts'
import { composeCaption } from './page-caption.ts'
import { PAGE_HIGHLIGHT_COLOUR, PAGE_PART_COLOUR } from './reference-page-style.ts'

/** Draws pages one at a time; keeps one WebGL context and the last world's model and scene. */
export interface ReferencePageDrawer {
  /** A 1024×768 PNG of the page. Same request, same bytes (in one browser build). */
  draw(request: ReferencePageRequest): Promise<Uint8Array>
  dispose(): void
}

/** The compiled world of consecutive pages of one sample (they share the world, so it is built once). */
interface LoadedWorld {
  key: string
  model: MjModel
  data: MjData
  content: CaptureScene
}

export function createReferencePageDrawer(mujoco: Mujoco): ReferencePageDrawer {
  return new Drawer(mujoco)
}

class Drawer implements ReferencePageDrawer {
  private renderer: WebGLRenderer | undefined
  private readonly frame = new OffscreenCanvas(CAPTURE_RENDER.width, CAPTURE_RENDER.height)
  private readonly page = new OffscreenCanvas(CAPTURE_RENDER.width, CAPTURE_RENDER.height)
  private readonly camera: PerspectiveCamera = createCaptureCamera()
  private loaded: LoadedWorld | undefined
  private isDisposed = false

  private readonly mujoco: Mujoco

  constructor(mujoco: Mujoco) {
    this.mujoco = mujoco
  }

  async draw(request: ReferencePageRequest): Promise<Uint8Array> {
    if (this.isDisposed) throw new RenderError('RENDER_DISPOSED', 'draw() was called on a disposed reference-page drawer; reload the page')
    const renderer = this.renderer ?? this.createRenderer()
    const world = this.worldFor(request.world, request.label)
    const integration = assembledIntegration(this.mujoco, world.model, request.parts, request.label)
    // The binding is typed `number[]` but copies any array-like of numbers.
    this.mujoco.mj_setState(world.model, world.data, integration as unknown as number[], MJ_STATE_INTEGRATION)
    this.mujoco.mj_forward(world.model, world.data)
    // Read the views now: they point into the wasm heap and are stale after it grows.
    applyGeomTransforms(world.content.meshes, world.data.geom_xpos as Float64Array, world.data.geom_xmat as Float64Array)
    styleMeshes(world.content, geomRoles(this.mujoco, world.model, request.parts))
    aimCaptureCamera(this.camera, request.camera)
    renderer.render(world.content.scene, this.camera)
    return encodeCanvasPng(composeCaption(this.page, this.frame, request.caption))
  }

  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    this.unloadWorld()
    this.renderer?.dispose()
    this.renderer?.forceContextLoss()
    this.renderer = undefined
  }

  // The same setup as the capture_scene renderer, so pages look like the agent's own captures.
  private createRenderer(): WebGLRenderer {
    let renderer: WebGLRenderer
    try {
      renderer = new WebGLRenderer({ canvas: this.frame, antialias: true, preserveDrawingBuffer: true })
    } catch (cause) {
      throw new RenderError('RENDER_WEBGL_UNAVAILABLE', `reference pages need WebGL2 but the page could not create a context (${String(cause)}); in headless Chromium do not pass --disable-software-rasterizer`, { cause })
    }
    renderer.setPixelRatio(CAPTURE_RENDER.pixelRatio)
    renderer.setSize(CAPTURE_RENDER.width, CAPTURE_RENDER.height, false)
    renderer.shadowMap.enabled = true
    this.renderer = renderer
    return renderer
  }

  private worldFor(members: readonly WorldMember[], label: string): LoadedWorld {
    const key = worldKey(members)
    if (this.loaded?.key === key) return this.loaded
    this.unloadWorld()
    const files = new Map(members.map(member => [member.path, base64ToBytes(member.data)] as const))
    const model = compileWorld(this.mujoco, files, { source: label })
    let data: MjData | undefined
    try {
      data = new this.mujoco.MjData(model)
      const content = createCaptureScene(model)
      this.loaded = { key, model, data, content }
      return this.loaded
    } catch (error) {
      data?.delete()
      model.delete()
      throw error
    }
  }

  private unloadWorld(): void {
    if (this.loaded === undefined) return
    this.loaded.content.dispose()
    this.loaded.data.delete()
    this.loaded.model.delete()
    this.loaded = undefined
  }
}

// Paths and bytes joined with separators that cannot occur in base64 or in the `world/` paths we accept.
function worldKey(members: readonly WorldMember[]): string {
  return members.map(member => `${member.path}\n${member.data}`).join('\n\n')
}

// Every page sets every mesh, so nothing of the previous page (colour, visibility) carries over.
function styleMeshes(content: CaptureScene, roles: readonly GeomRole[]): void {
  for (let geom = 0; geom < content.meshes.length; geom++) {
    const mesh = content.meshes[geom]
    if (mesh === undefined) continue
    const role = roles[geom] ?? 'hidden'
    mesh.visible = role !== 'hidden'
    const [r, g, b] = role === 'highlighted' ? PAGE_HIGHLIGHT_COLOUR : PAGE_PART_COLOUR
    // Color.setRGB takes the working (linear sRGB) space, as createCaptureScene reads geom_rgba.
    mesh.material.color.setRGB(r, g, b)
    // Pages show solid parts whatever alpha the model authored; a changed blend mode needs a material update.
    if (mesh.material.transparent) {
      mesh.material.transparent = false
      mesh.material.needsUpdate = true
    }
    mesh.material.opacity = 1
  }
}
