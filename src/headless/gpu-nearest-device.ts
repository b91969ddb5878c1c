// Node only: the NearestDevice that runs gpu.js in a dedicated headless Chromium page (page/gpu-nearest*), never the
// agent's page; ground truth never crosses (only centred clouds and affine maps do). No certification and no scoring
// here: src/scoring/gpu checks every answer, and its decideBackend gets this device injected (it opens no browser).
import { base64ToBytes, bytesToBase64 } from '../shared/base64.ts'
import { ScoringError } from '../scoring/index.ts'
import type { NearestAnswers, NearestDevice, NearestGroup } from '../scoring/gpu/index.ts'
import { findChromium } from '../shared/chromium.ts'
import { openBrowserPage, type BrowserPage } from './browser-page.ts'
import { GPU_NEAREST_GLOBAL, GpuInfoSchema, GpuNearestResponseSchema, type GpuInfo, type GpuNearestPageApi, type GpuNearestRequest } from './gpu-nearest-messages.ts'

/** Limit for one batch on the page, in milliseconds (a software renderer on a big sample is slow, not hung). */
export const GPU_BATCH_TIMEOUT_MS = 600_000

export interface OpenPageDeviceOptions {
  /** Chromium flags added for hardware WebGL2 (one of CHROMIUM_GPU_ARG_SETS); none = SwiftShader as everywhere else. */
  extraArgs?: readonly string[]
  /** Chromium executable; default `AWB_CHROMIUM`, else with `extraArgs` a full browser first (findChromium's `hardware-gpu`), without them as any page. */
  executablePath?: string
}

/** The float32 bytes of `values` as base64 (little-endian, as every platform we run on). */
function floatsToBase64(values: Float32Array): string {
  return bytesToBase64(new Uint8Array(values.buffer, values.byteOffset, values.byteLength))
}

function base64ToFloats(text: string, expected: number, what: string): Float32Array {
  const bytes = base64ToBytes(text)
  if (bytes.byteLength !== 4 * expected) throw new ScoringError('SCORING_GPU_FAILED', `the GPU page sent ${bytes.byteLength} bytes for ${what}, expected ${4 * expected}`)
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** gpu.js in its own headless Chromium page. Public only as a type: callers open it with openPageDevice. */
export class PageNearestDevice implements NearestDevice {
  private nextId = 0
  private readonly sizes = new Map<number, number>()

  private readonly browserPage: BrowserPage
  readonly info: GpuInfo

  private constructor(browserPage: BrowserPage, info: GpuInfo) {
    this.browserPage = browserPage
    this.info = info
  }

  get renderer(): string {
    return this.info.renderer
  }

  get mode(): string {
    return this.info.mode
  }

  /** Starts Vite + Chromium and loads the GPU page. Throws `SCORING_GPU_UNAVAILABLE` when any of it fails. */
  static async open(options: OpenPageDeviceOptions = {}): Promise<PageNearestDevice> {
    let browserPage: BrowserPage
    try {
      browserPage = await openBrowserPage({
        file: 'gpu-nearest.html', readyGlobal: GPU_NEAREST_GLOBAL, extraArgs: options.extraArgs ?? [], extraDependencies: ['gpu.js'],
        // A hardware flag set wants the full browser it is written for; without one the page is SwiftShader, as any page.
        executablePath: options.executablePath ?? findChromium(process.env, (options.extraArgs ?? []).length > 0 ? 'hardware-gpu' : 'page'),
      })
    } catch (cause) {
      throw new ScoringError('SCORING_GPU_UNAVAILABLE', `the GPU scoring page did not open: ${describe(cause)}; use --backend cpu`, { cause })
    }
    try {
      const info = GpuInfoSchema.parse(await browserPage.page.evaluate(name => (Reflect.get(window, name) as GpuNearestPageApi).info(), GPU_NEAREST_GLOBAL))
      return new PageNearestDevice(browserPage, info)
    } catch (cause) {
      await browserPage.close()
      throw new ScoringError('SCORING_GPU_UNAVAILABLE', `the GPU scoring page did not report its renderer: ${describe(cause)}`, { cause })
    }
  }

  async upload(cloud: Float32Array): Promise<number> {
    const id = this.nextId++
    await this.call('upload', () => this.browserPage.page.evaluate(({ name, request }) => {
      (Reflect.get(window, name) as GpuNearestPageApi).upload(request)
    }, { name: GPU_NEAREST_GLOBAL, request: { id, points: floatsToBase64(cloud) } }))
    this.sizes.set(id, cloud.length / 3)
    return id
  }

  async release(ids: readonly number[]): Promise<void> {
    for (const id of ids) this.sizes.delete(id)
    await this.call('release', () => this.browserPage.page.evaluate(({ name, list }) => {
      (Reflect.get(window, name) as GpuNearestPageApi).release(list)
    }, { name: GPU_NEAREST_GLOBAL, list: [...ids] }))
  }

  async nearest(groups: readonly NearestGroup[]): Promise<NearestAnswers[]> {
    const request: GpuNearestRequest = { groups: groups.map(g => ({ source: g.source, target: g.target, affines: floatsToBase64(g.affines) })) }
    const raw = await this.call('nearest', () => this.browserPage.page.evaluate(({ name, r }) => (Reflect.get(window, name) as GpuNearestPageApi).nearest(r), { name: GPU_NEAREST_GLOBAL, r: request }))
    const parsed = GpuNearestResponseSchema.safeParse(raw)
    if (!parsed.success || parsed.data.groups.length !== groups.length) throw new ScoringError('SCORING_GPU_FAILED', 'the GPU page answered a batch with a malformed response')
    return parsed.data.groups.map((answer, g) => {
      const n = this.sizes.get(groups[g]!.source)
      if (n === undefined) throw new ScoringError('SCORING_GPU_FAILED', `group ${g} names cloud ${groups[g]!.source}, which was never uploaded`)
      const expected = n * (groups[g]!.affines.length / 12)
      return { index: base64ToFloats(answer.index, expected, `group ${g} indices`), second: base64ToFloats(answer.second, expected, `group ${g} distances`) }
    })
  }

  close(): Promise<void> {
    return this.browserPage.close()
  }

  private async call<T>(what: string, task: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ScoringError('SCORING_GPU_FAILED', `the GPU page did not answer ${what} within ${GPU_BATCH_TIMEOUT_MS / 1000} s`)), GPU_BATCH_TIMEOUT_MS)
    })
    try {
      return await Promise.race([task(), timeout])
    } catch (error) {
      if (error instanceof ScoringError) throw error
      const pageErrors = this.browserPage.pageErrors.length > 0 ? ` (page errors: ${this.browserPage.pageErrors.join('; ')})` : ''
      throw new ScoringError('SCORING_GPU_FAILED', `the GPU page failed during ${what}: ${describe(error)}${pageErrors}`, { cause: error })
    } finally {
      clearTimeout(timer)
    }
  }
}

/**
 * Starts Vite + Chromium and loads the GPU scoring page. Throws `SCORING_GPU_UNAVAILABLE` when any of it fails. The
 * factory decideBackend (src/scoring/gpu) is given as `openDevice`, so scoring itself never launches a browser.
 */
export function openPageDevice(options: OpenPageDeviceOptions = {}): Promise<PageNearestDevice> {
  return PageNearestDevice.open(options)
}
