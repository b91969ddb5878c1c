// Node only: starts the Vite page server and headless Chromium and loads one page of page/ until its entry global
// exists; knows nothing about what the page does (episode runs, reference pages).
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, chromium, type Page } from 'playwright'
import { createServer, type ViteDevServer } from 'vite'
import { CHROMIUM_ARGS, findChromium } from '../shared/chromium.ts'
import { refuseHostActions } from '../shared/host-actions.ts'
import { RenderError } from '../render/index.ts'
import { ENCLOSING_NODE_MODULES, MODULES_ROOT, PACKAGE_ROOT } from '../shared/package-root.ts'
import { PREBUNDLED_DEPENDENCIES } from '../shared/prebundled-dependencies.ts'

const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url))
/**
 * What the page server may serve: the package's page-safe modules (`src/`, compiled or not) and its dependencies
 * (its own node_modules and, installed, the one it is hoisted into). Never the package root: its `fixtures/` hold the
 * bundled benchmark (every `evaluation.json`), the demonstrations and the generator, and any local process can reach
 * this port.
 */
const SERVED_ROOTS = [join(MODULES_ROOT, 'src'), join(PACKAGE_ROOT, 'node_modules'), ...(ENCLOSING_NODE_MODULES === undefined ? [] : [ENCLOSING_NODE_MODULES])]
/** Refused even inside the served roots (Vite's own defaults, plus ground truth wherever a package lies). */
const DENIED_FILES = ['.env', '.env.*', '*.{crt,pem}', '**/.git/**', '**/evaluation.json']
/** Its own pre-bundle cache, so driver runs never invalidate the one Vitest keeps (never inside an installed package). */
const CACHE_DIR = join(ENCLOSING_NODE_MODULES ?? join(PACKAGE_ROOT, 'node_modules'), '.vite', 'awb-headless')
/**
 * Limits for the page to load its modules (MuJoCo excluded) and expose its entry, in milliseconds: the first load,
 * then one reload. Two page servers that start at once on a cold Vite cache (two pages in one test run, `awb fixtures`
 * beside a report) both pre-bundle into the same folder; a page that asked for a chunk while the other server replaced
 * it never starts, and the same page loaded again does (the bundles are then in place). Together under a minute, so a
 * caller with a one-minute limit gets this error, which names the failed requests, rather than its own timeout.
 */
const PAGE_READY_TIMEOUT_MS = 20_000
const PAGE_RELOAD_READY_TIMEOUT_MS = 30_000

export interface OpenBrowserPageOptions {
  /** Chromium executable; default findChromium's (`AWB_CHROMIUM`, else the headless shell, else a full browser). */
  executablePath?: string | undefined
  /** HTML file inside `src/headless/page/`, e.g. `index.html`. */
  file: string
  /** Name of the `window` property the page sets once its entry is ready. */
  readyGlobal: string
  /**
   * The caller handles SIGINT / SIGTERM / SIGHUP itself (e.g. to export before closing), so Playwright must not
   * install its handlers, which close the browser and exit the process at once. Default false.
   */
  hasOwnSignalHandling?: boolean | undefined
  /** Flags added to `CHROMIUM_ARGS` (e.g. one of `CHROMIUM_GPU_ARG_SETS`). Default none. */
  extraArgs?: readonly string[] | undefined
  /**
   * More CommonJS / UMD dependencies to pre-bundle (e.g. `gpu.js` for the GPU scoring page). They get their own Vite
   * cache (`awb-headless-<names>`), so pages with and without them never invalidate each other's. Default none.
   */
  extraDependencies?: readonly string[] | undefined
}

/** A page loaded in headless Chromium, served by its own Vite server. */
export interface BrowserPage {
  page: Page
  /** The browser's WebGL renderer string (e.g. SwiftShader), or `no WebGL2`. */
  gpu: string
  /** Origin of the page server (`http://127.0.0.1:<port>`), for diagnostics and tests. */
  origin: string
  /** Messages of uncaught page errors since the page opened (for error reports). */
  pageErrors: readonly string[]
  /** Stops Chromium, then the server; safe to call more than once. */
  close(): Promise<void>
}

/**
 * Starts Vite on 127.0.0.1 (a random port, so the page is a secure context for WebMCP) and Chromium with
 * `CHROMIUM_ARGS`, opens `file` and waits for `readyGlobal`. Throws `RenderError`
 * (`RENDER_HEADLESS_LAUNCH`, `RENDER_HEADLESS_PAGE`); anything started is stopped again on failure.
 */
export async function openBrowserPage(options: OpenBrowserPageOptions): Promise<BrowserPage> {
  const executablePath = options.executablePath ?? findChromium()
  if (executablePath === undefined) {
    throw new RenderError('RENDER_HEADLESS_LAUNCH', 'no Chromium found for rendered runs; install it (apt-get install chromium) or set AWB_CHROMIUM to its path')
  }
  const stack: (() => Promise<void>)[] = []
  let closing: Promise<void> | undefined
  const closeAll = (): Promise<void> => {
    closing ??= (async () => {
      for (const close of stack.reverse()) await close()
    })()
    return closing
  }
  try {
    const server = await startPageServer(options.file, options.hasOwnSignalHandling === true, options.extraDependencies ?? [])
    stack.push(() => server.close())
    const browser = await launch(executablePath, options.hasOwnSignalHandling === true, options.extraArgs ?? [])
    stack.push(() => browser.close())
    const page = await browser.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', error => pageErrors.push(error.message))
    const failedRequests: string[] = []
    page.on('response', (response) => {
      if (response.status() >= 400) failedRequests.push(`${response.url()} (HTTP ${response.status()})`)
    })
    page.on('requestfailed', request => failedRequests.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`))
    const root = server.resolvedUrls?.local[0]
    if (root === undefined) throw new RenderError('RENDER_HEADLESS_LAUNCH', 'Vite started but reported no local URL for the headless page')
    const url = new URL(options.file, root).href
    const ready = (timeout: number) => page.waitForFunction(name => Reflect.has(window, name), options.readyGlobal, { timeout }).then(() => true, () => false)
    await page.goto(url)
    if (!(await ready(PAGE_READY_TIMEOUT_MS))) {
      const firstLoad = [...failedRequests]
      failedRequests.length = 0
      await page.reload()
      if (!(await ready(PAGE_RELOAD_READY_TIMEOUT_MS))) {
        const failed = [...new Set([...firstLoad, ...failedRequests])]
        const detail = [pageErrors.length > 0 ? `page errors: ${pageErrors.join('; ')}` : '', failed.length > 0 ? `failed requests: ${failed.join(', ')}` : ''].filter(part => part !== '').join('; ')
        throw new RenderError('RENDER_HEADLESS_PAGE', `the headless page at ${url} did not start, loaded twice (${PAGE_READY_TIMEOUT_MS} ms, then ${PAGE_RELOAD_READY_TIMEOUT_MS} ms)${detail === '' ? '' : `: ${detail}`}`)
      }
    }
    const gpu = await page.evaluate(readGpu)
    return { page, gpu, origin: new URL(root).origin, pageErrors, close: closeAll }
  } catch (error) {
    await closeAll()
    throw error
  }
}

/** What a timed-out or failed evaluation is reported as (whole sentences naming the request and the fix). */
export interface EvaluationMessages {
  /** The whole `RENDER_HEADLESS_TIMEOUT` message. */
  timedOut: string
  /** Prefix of the `RENDER_HEADLESS_PAGE` message; the page's own message follows after a colon. */
  failed: string
}

/**
 * Runs `task` (a `page.evaluate`) under a limit of `timeoutMs`. A `RenderError` passes through; any other
 * failure becomes `RENDER_HEADLESS_PAGE` carrying the page's message.
 */
export async function evaluateWithTimeout<T>(task: Promise<T>, timeoutMs: number, messages: EvaluationMessages): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderError('RENDER_HEADLESS_TIMEOUT', messages.timedOut)), timeoutMs)
  })
  try {
    return await Promise.race([task, timeout])
  } catch (error) {
    if (error instanceof RenderError) throw error
    throw new RenderError('RENDER_HEADLESS_PAGE', `${messages.failed}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  } finally {
    clearTimeout(timer)
  }
}

async function startPageServer(file: string, hasOwnSignalHandling: boolean, extraDependencies: readonly string[]): Promise<ViteDevServer> {
  const sigterm = process.listeners('SIGTERM')
  const stdinEnd = process.stdin.listeners('end')
  try {
    const server = await createServer({
      configFile: false,
      root: PAGE_DIR,
      // Its own pre-bundle cache (one per dependency set), so driver runs never invalidate the one Vitest keeps.
      cacheDir: `${CACHE_DIR}${extraDependencies.map(name => `-${name.replace(/[^a-z0-9]+/gi, '_')}`).join('')}`,
      logLevel: 'error',
      clearScreen: false,
      // Scan only the page being opened: another page's imports (gpu.js, an optional peer) may not be installed, and a
      // failed scan makes Vite skip pre-bundling altogether.
      optimizeDeps: { entries: [file], include: [...PREBUNDLED_DEPENDENCIES, ...extraDependencies] },
      server: { host: '127.0.0.1', port: 0, hmr: false, watch: null, fs: { strict: true, allow: SERVED_ROOTS, deny: DENIED_FILES } },
      // Any local process reaches this port: none may make the host start a program through it.
      plugins: [{ name: 'awb:refuse-host-actions', configureServer: server => void server.middlewares.use(refuseHostActions) }],
    })
    const listening = await server.listen()
    // Vite's dev server exits the process on SIGTERM and when stdin ends (its CLI behaviour). A caller that
    // handles those itself (stdio MCP serving, export before exit) must not lose the process under it.
    if (hasOwnSignalHandling) {
      for (const listener of process.listeners('SIGTERM')) if (!sigterm.includes(listener)) process.off('SIGTERM', listener)
      for (const listener of process.stdin.listeners('end')) if (!stdinEnd.includes(listener)) process.stdin.off('end', listener as () => void)
    }
    return listening
  } catch (cause) {
    throw new RenderError('RENDER_HEADLESS_LAUNCH', `the Vite page server did not start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

async function launch(executablePath: string, hasOwnSignalHandling: boolean, extraArgs: readonly string[]): Promise<Browser> {
  const signals = hasOwnSignalHandling ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {}
  try {
    return await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs], ...signals })
  } catch (cause) {
    throw new RenderError('RENDER_HEADLESS_LAUNCH', `Chromium at ${executablePath} did not start: ${cause instanceof Error ? cause.message : String(cause)}; set AWB_CHROMIUM to a working binary`, { cause })
  }
}

/** Runs in the page: the unmasked WebGL renderer string, or why there is none. */
function readGpu(): string {
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2')
  if (gl === null) return 'no WebGL2'
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  return String(gl.getParameter(info === null ? gl.RENDERER : info.UNMASKED_RENDERER_WEBGL))
}
