// Node only: serves the headless page with Vite and drives it in Playwright Chromium; no episode logic here.
import { fileURLToPath } from 'node:url'
import { type Browser, chromium, type Page } from 'playwright'
import { createServer, type ViteDevServer } from 'vite'
import { CHROMIUM_ARGS, findChromium } from '../../shared/chromium.ts'
import { RenderError } from '../errors.ts'
import { HEADLESS_PAGE_GLOBAL, type HeadlessRunRequest, type HeadlessRunResponse, HeadlessRunResponseSchema } from './protocol.ts'

const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url))
const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
/** Default limit of one `run` (page load excluded), in milliseconds. */
export const HEADLESS_RUN_TIMEOUT_MS = 300_000
/** Limit for the page to load MuJoCo-free modules and expose its entry, in milliseconds. */
const PAGE_READY_TIMEOUT_MS = 60_000
/** Dependencies Vite must pre-bundle before the page asks for them (CommonJS ones cannot load unbundled). */
const PREBUNDLED_DEPENDENCIES = ['jszip', 'ajv', 'zod', 'three', '@mcp-b/webmcp-polyfill']

export interface HeadlessSessionOptions {
  /** Chromium executable; default `AWB_CHROMIUM`, then the usual Debian/Chrome paths. */
  executablePath?: string
  /** Limit of each `run`, in milliseconds (default `HEADLESS_RUN_TIMEOUT_MS`). */
  runTimeoutMs?: number
}

/** A started page server + headless Chromium with the page loaded; `run` may be called repeatedly. */
export interface HeadlessSession {
  run(request: HeadlessRunRequest): Promise<HeadlessRunResponse>
  /** The browser's WebGL renderer string (e.g. SwiftShader), for benchmark reports. */
  readonly gpu: string
  close(): Promise<void>
}

/**
 * Starts Vite on 127.0.0.1 (a random port, so the page is a secure context for WebMCP) and Chromium with
 * `CHROMIUM_ARGS`, opens the page and waits for its entry. Throws `RenderError`
 * (`RENDER_HEADLESS_LAUNCH`, `RENDER_HEADLESS_PAGE`); anything started is stopped again on failure.
 */
export async function openHeadlessSession(options: HeadlessSessionOptions = {}): Promise<HeadlessSession> {
  const executablePath = options.executablePath ?? findChromium()
  if (executablePath === undefined) {
    throw new RenderError('RENDER_HEADLESS_LAUNCH', 'no Chromium found for rendered runs; install it (apt-get install chromium) or set AWB_CHROMIUM to its path')
  }
  const stack: (() => Promise<void>)[] = []
  const closeAll = async (): Promise<void> => {
    for (const close of stack.reverse()) await close()
  }
  try {
    const server = await startPageServer()
    stack.push(() => server.close())
    const browser = await launch(executablePath)
    stack.push(() => browser.close())
    const page = await browser.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', error => pageErrors.push(error.message))
    const url = server.resolvedUrls?.local[0]
    if (url === undefined) throw new RenderError('RENDER_HEADLESS_LAUNCH', 'Vite started but reported no local URL for the headless page')
    await page.goto(url)
    await page.waitForFunction(name => Reflect.has(window, name), HEADLESS_PAGE_GLOBAL, { timeout: PAGE_READY_TIMEOUT_MS }).catch((cause: unknown) => {
      throw new RenderError('RENDER_HEADLESS_PAGE', `the headless page at ${url} did not start within ${PAGE_READY_TIMEOUT_MS} ms${pageErrors.length > 0 ? `: ${pageErrors.join('; ')}` : ''}`, { cause })
    })
    const gpu = await page.evaluate(readGpu)
    return {
      gpu,
      run: request => runInPage(page, request, options.runTimeoutMs ?? HEADLESS_RUN_TIMEOUT_MS),
      close: closeAll,
    }
  } catch (error) {
    await closeAll()
    throw error
  }
}

async function startPageServer(): Promise<ViteDevServer> {
  try {
    const server = await createServer({
      configFile: false,
      root: PAGE_DIR,
      // Its own pre-bundle cache, so driver runs never invalidate the one Vitest keeps.
      cacheDir: `${PROJECT_ROOT}node_modules/.vite/awb-headless`,
      logLevel: 'error',
      clearScreen: false,
      optimizeDeps: { include: PREBUNDLED_DEPENDENCIES },
      server: { host: '127.0.0.1', port: 0, hmr: false, watch: null, fs: { allow: [PROJECT_ROOT] } },
    })
    return await server.listen()
  } catch (cause) {
    throw new RenderError('RENDER_HEADLESS_LAUNCH', `the Vite page server did not start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

async function launch(executablePath: string): Promise<Browser> {
  try {
    return await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] })
  } catch (cause) {
    throw new RenderError('RENDER_HEADLESS_LAUNCH', `Chromium at ${executablePath} did not start: ${cause instanceof Error ? cause.message : String(cause)}; set AWB_CHROMIUM to a working binary`, { cause })
  }
}

async function runInPage(page: Page, request: HeadlessRunRequest, timeoutMs: number): Promise<HeadlessRunResponse> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderError('RENDER_HEADLESS_TIMEOUT', `the headless run of ${request.source} (${request.calls.length} calls) took longer than ${timeoutMs} ms; raise the limit or split the calls`)), timeoutMs)
  })
  try {
    const raw = await Promise.race([
      page.evaluate(([name, body]) => {
        const entry: unknown = Reflect.get(window, name)
        const run: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'run') : undefined
        if (typeof run !== 'function') throw new Error(`window.${name}.run is missing`)
        return run(body)
      }, [HEADLESS_PAGE_GLOBAL, request] as const),
      timeout,
    ])
    return HeadlessRunResponseSchema.parse(raw)
  } catch (error) {
    if (error instanceof RenderError) throw error
    throw new RenderError('RENDER_HEADLESS_PAGE', `the headless page could not run ${request.source}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  } finally {
    clearTimeout(timer)
  }
}

/** Runs in the page: the unmasked WebGL renderer string, or why there is none. */
function readGpu(): string {
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2')
  if (gl === null) return 'no WebGL2'
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  return String(gl.getParameter(info === null ? gl.RENDERER : info.UNMASKED_RENDERER_WEBGL))
}
