// Node only: one episode kept open in a persistent headless page (page/episode-session.html) — list its tools,
// run single agent calls, export — for `awb mcp` and CLI agents; no MCP and no episode logic here.
import type { Page } from 'playwright'
import { RenderError } from '../render/index.ts'
import { evaluateWithTimeout, openBrowserPage } from './browser-page.ts'
import {
  EPISODE_SESSION_GLOBAL,
  type EpisodeSessionOpened,
  EpisodeSessionOpenedSchema,
} from './episode-session-messages.ts'
import { base64ToBytes, bytesToBase64 } from './headless-page-messages.ts'

/** Limit for opening the episode in the page (decode, compile, register), in milliseconds. */
const OPEN_TIMEOUT_MS = 90_000
/** Limit of one tool call in the page (runner.md §4.8), in milliseconds. */
const CALL_TIMEOUT_MS = 300_000
/** Limit of the export (runner.md §4.8), in milliseconds. */
const EXPORT_TIMEOUT_MS = 60_000

export interface OpenEpisodeSessionOptions {
  /** The episode archive bytes (setup or active). */
  episode: Uint8Array
  /** Label of the episode in errors (its file name). */
  source: string
  /** Chromium executable; default findChromium's (`AWB_CHROMIUM`, else the headless shell, else a full browser). */
  executablePath?: string | undefined
  /** The caller handles SIGINT / SIGTERM itself (exports, then closes); Playwright must not exit the process. */
  hasOwnSignalHandling?: boolean | undefined
}

/** A registered page tool (the WebMCP registration object without `execute`). */
export type EpisodeSessionTool = EpisodeSessionOpened['tools'][number]

export interface EpisodeSession {
  /** The page's URL (a loopback Vite address). */
  readonly url: string
  /** `producer.renderer` of captures, e.g. `three-r187/webgl2`. */
  readonly renderer: string
  readonly gpu: string
  /** The page's registered tools, in registration order. */
  listTools(): Promise<EpisodeSessionTool[]>
  /** One agent call through the registered tool's `execute`; resolves to its JSON string. Throws `RenderError` when the page fails. */
  callTool(name: string, input: Record<string, unknown>): Promise<string>
  /** The full episode as it is now (validated and encoded in the page). */
  exportEpisode(): Promise<Uint8Array>
  close(): Promise<void>
}

/** Starts the page server and Chromium and opens `episode` in the page. Throws `RenderError` (`RENDER_HEADLESS_*`). */
export async function openEpisodeSession(options: OpenEpisodeSessionOptions): Promise<EpisodeSession> {
  const opened = await openBrowserPage({ executablePath: options.executablePath, file: 'episode-session.html', readyGlobal: EPISODE_SESSION_GLOBAL, hasOwnSignalHandling: options.hasOwnSignalHandling })
  try {
    const { page } = opened
    const raw = await evaluateWithTimeout(invoke(page, 'open', { episode: bytesToBase64(options.episode), source: options.source }), OPEN_TIMEOUT_MS, {
      timedOut: `opening ${options.source} in the headless page took longer than ${OPEN_TIMEOUT_MS} ms`,
      failed: `the headless page could not open ${options.source}`,
    })
    const parsed = EpisodeSessionOpenedSchema.safeParse(raw)
    if (!parsed.success) throw new RenderError('RENDER_HEADLESS_PAGE', `the headless page answered the opening of ${options.source} with an unexpected shape: ${parsed.error.message}`)
    return {
      url: page.url(),
      renderer: parsed.data.renderer,
      gpu: opened.gpu,
      listTools: async () => EpisodeSessionOpenedSchema.shape.tools.parse(await invoke(page, 'listTools', null)),
      callTool: async (name, input) => {
        const answer = await evaluateWithTimeout(invoke(page, 'call', { name, input }), CALL_TIMEOUT_MS, {
          timedOut: `the tool call ${name} in the headless page took longer than ${CALL_TIMEOUT_MS} ms`,
          failed: `the headless page failed during the tool call ${name}`,
        })
        if (typeof answer !== 'string') throw new RenderError('RENDER_HEADLESS_PAGE', `the headless page answered ${name} with ${typeof answer} instead of a JSON string`)
        return answer
      },
      exportEpisode: async () => {
        const base64 = await evaluateWithTimeout(invoke(page, 'exportEpisode', null), EXPORT_TIMEOUT_MS, {
          timedOut: `exporting ${options.source} took longer than ${EXPORT_TIMEOUT_MS} ms`,
          failed: `the headless page could not export ${options.source}`,
        })
        if (typeof base64 !== 'string') throw new RenderError('RENDER_HEADLESS_PAGE', `the headless page answered the export of ${options.source} with ${typeof base64}`)
        return base64ToBytes(base64)
      },
      close: opened.close,
    }
  } catch (error) {
    await opened.close()
    throw error
  }
}

/** Calls `window.__awbEpisodeSession[method](body)` in the page. */
function invoke(page: Page, method: string, body: unknown): Promise<unknown> {
  return page.evaluate(([name, key, value]) => {
    const entry: unknown = Reflect.get(window, name)
    const fn: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, key) : undefined
    if (typeof fn !== 'function') throw new Error(`window.${name}.${key} is missing`)
    return fn(value) as unknown
  }, [EPISODE_SESSION_GLOBAL, method, body] as const)
}
