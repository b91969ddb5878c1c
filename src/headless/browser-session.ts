// Node only: drives the headless episode page (page/index.html) in Playwright Chromium; no episode logic here.
import type { Page } from 'playwright'
import { RenderError } from '../render/index.ts'
import { evaluateWithTimeout, openBrowserPage } from './browser-page.ts'
import { HEADLESS_PAGE_GLOBAL, type HeadlessRunRequest, type HeadlessRunResponse, HeadlessRunResponseSchema } from './headless-page-messages.ts'

/** Default limit of one `run` (page load excluded), in milliseconds. */
export const HEADLESS_RUN_TIMEOUT_MS = 300_000

export interface HeadlessSessionOptions {
  /** Chromium executable; default findChromium's (`AWB_CHROMIUM`, else the headless shell, else a full browser). */
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
  const opened = await openBrowserPage({ executablePath: options.executablePath, file: 'index.html', readyGlobal: HEADLESS_PAGE_GLOBAL })
  return {
    gpu: opened.gpu,
    run: request => runInPage(opened.page, request, options.runTimeoutMs ?? HEADLESS_RUN_TIMEOUT_MS),
    close: opened.close,
  }
}

async function runInPage(page: Page, request: HeadlessRunRequest, timeoutMs: number): Promise<HeadlessRunResponse> {
  const raw = await evaluateWithTimeout(
    page.evaluate(([name, body]) => {
      const entry: unknown = Reflect.get(window, name)
      const run: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'run') : undefined
      if (typeof run !== 'function') throw new Error(`window.${name}.run is missing`)
      return run(body)
    }, [HEADLESS_PAGE_GLOBAL, request] as const),
    timeoutMs,
    {
      timedOut: `the headless run of ${request.source} (${request.calls.length} calls) took longer than ${timeoutMs} ms; raise the limit or split the calls`,
      failed: `the headless page could not run ${request.source}`,
    },
  )
  const parsed = HeadlessRunResponseSchema.safeParse(raw)
  if (!parsed.success) {
    throw new RenderError('RENDER_HEADLESS_PAGE', `the headless page answered the run of ${request.source} with an unexpected shape: ${parsed.error.message}`)
  }
  return parsed.data
}
