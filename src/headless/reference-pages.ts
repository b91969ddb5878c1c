// Node only: renders reference pages (PNG) in one long-lived headless Chromium page; no page planning, no files.
import type { Page } from 'playwright'
import type { CameraState } from '../world/index.ts'
import { RenderError, THREE_RENDERER_NAME } from '../render/index.ts'
import { evaluateWithTimeout, openBrowserPage } from './browser-page.ts'
import { base64ToBytes, bytesToBase64 } from './headless-page-messages.ts'
import {
  REFERENCE_PAGE_GLOBAL,
  type ReferencePagePart,
  type ReferencePageRequest,
  ReferencePageResponseSchema,
  type WorldMember,
} from './reference-page-messages.ts'

/** What these pages are drawn with, for package READMEs: the capture renderer in headless Chromium. */
export const REFERENCE_PAGE_RENDERER_NAME = `${THREE_RENDERER_NAME} (headless chromium)`
/** Default limit of one page (world compile included, browser start excluded), in milliseconds. */
export const REFERENCE_PAGE_TIMEOUT_MS = 60_000

/** One page to draw. Extra fields on parts (meshes, source ids) are ignored: the world holds the geometry. */
export interface ReferencePageInput {
  /** The sample's episode `world/` members (model.xml and OBJs), keyed by archive path, bytes untouched. */
  world: ReadonlyMap<string, Uint8Array>
  /** The parts with their assembled poses; bodies of the model not listed are hidden. */
  parts: readonly ReferencePagePart[]
  /** Printed large at the top-left, e.g. `Step 2`; empty for none. */
  caption: string
  /** World-space camera (+Z up) with the capture intrinsics (fovy 38°, 4:3). */
  camera: CameraState
  /** Names the page in error messages, e.g. `ikea-manualbook / Chair/x page 2` (default `reference page`). */
  label?: string
}

export interface ReferencePageRendererOptions {
  /** Chromium executable; default findChromium's (`AWB_CHROMIUM`, else the headless shell, else a full browser). */
  executablePath?: string
  /** Limit of each page, in milliseconds (default `REFERENCE_PAGE_TIMEOUT_MS`). */
  pageTimeoutMs?: number
}

/** A started headless Chromium drawing pages one after another; close it when done. */
export interface ReferencePageRenderer {
  /** `REFERENCE_PAGE_RENDERER_NAME`. */
  readonly name: string
  /** The browser's WebGL renderer string (e.g. SwiftShader). */
  readonly gpu: string
  /**
   * A 1024×768 PNG: parts at their poses in the capture style (visible ones grey, highlighted ones orange),
   * the caption top-left. The same input gives the same bytes in the same browser build and fonts.
   * Calls are queued, so concurrent callers are served in order. Throws `RenderError`
   * (`RENDER_HEADLESS_PAGE` with the page's reason, `RENDER_HEADLESS_TIMEOUT`, `RENDER_DISPOSED` after close).
   */
  render(input: ReferencePageInput): Promise<Uint8Array>
  /** Stops Chromium and the page server; waits for a page in progress. Safe to call more than once. */
  close(): Promise<void>
}

/**
 * Starts the page server and headless Chromium once for many pages (startup costs seconds; a page
 * tens of milliseconds). Throws `RenderError` (`RENDER_HEADLESS_LAUNCH`, `RENDER_HEADLESS_PAGE`).
 */
export async function openReferencePageRenderer(options: ReferencePageRendererOptions = {}): Promise<ReferencePageRenderer> {
  const opened = await openBrowserPage({ executablePath: options.executablePath, file: 'reference-pages.html', readyGlobal: REFERENCE_PAGE_GLOBAL })
  const timeoutMs = options.pageTimeoutMs ?? REFERENCE_PAGE_TIMEOUT_MS
  let queue: Promise<unknown> = Promise.resolve()
  let isClosed = false
  return {
    name: REFERENCE_PAGE_RENDERER_NAME,
    gpu: opened.gpu,
    render(input) {
      if (isClosed) return Promise.reject(new RenderError('RENDER_DISPOSED', 'render() was called after the reference-page renderer was closed; open a new one with openReferencePageRenderer()'))
      const request = toRequest(input)
      const rendered = queue.then(() => renderInPage(opened.page, request, timeoutMs))
      queue = rendered.catch(() => undefined)
      return rendered
    },
    async close() {
      isClosed = true
      await queue
      await opened.close()
    },
  }
}

// Plain wire data: only the fields the page needs, world members sorted by path.
function toRequest(input: ReferencePageInput): ReferencePageRequest {
  const world: WorldMember[] = [...input.world.keys()].sort().map(path => ({ path, data: bytesToBase64(input.world.get(path) ?? new Uint8Array(0)) }))
  const parts = input.parts.map((part): ReferencePagePart => ({
    bodyId: part.bodyId,
    position: [part.position[0], part.position[1], part.position[2]],
    quaternion: [part.quaternion[0], part.quaternion[1], part.quaternion[2], part.quaternion[3]],
    visible: part.visible,
    highlighted: part.highlighted,
  }))
  return {
    label: input.label ?? 'reference page',
    world,
    parts,
    caption: input.caption,
    camera: { position: [...input.camera.position], target: [...input.camera.target] },
  }
}

async function renderInPage(page: Page, request: ReferencePageRequest, timeoutMs: number): Promise<Uint8Array> {
  const raw = await evaluateWithTimeout(
    page.evaluate(([name, body]) => {
      const entry: unknown = Reflect.get(window, name)
      const render: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'render') : undefined
      if (typeof render !== 'function') throw new Error(`window.${name}.render is missing`)
      return render(body)
    }, [REFERENCE_PAGE_GLOBAL, request] as const),
    timeoutMs,
    {
      timedOut: `rendering ${request.label} took longer than ${timeoutMs} ms; raise pageTimeoutMs or check the world's size`,
      failed: `the reference page could not draw ${request.label}`,
    },
  )
  const parsed = ReferencePageResponseSchema.safeParse(raw)
  if (!parsed.success) throw new RenderError('RENDER_HEADLESS_PAGE', `the reference page answered ${request.label} with an unexpected shape: ${parsed.error.message}`)
  return base64ToBytes(parsed.data.png)
}
