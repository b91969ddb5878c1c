// Node only: runs a call list on an episode in headless Chromium with the three.js renderer (engine of `awb env run --render`).
import { type HeadlessSessionOptions, openHeadlessSession } from './browser-session.ts'
import { base64ToBytes, bytesToBase64, type HeadlessCall, type HeadlessCallOutput, HeadlessCallSchema } from './headless-page-messages.ts'

export interface RunEpisodeInBrowserOptions extends HeadlessSessionOptions {
  /** The episode archive bytes (setup or active). */
  episode: Uint8Array
  /** Calls in order; agent calls to registered tools go through WebMCP `execute`. */
  calls: readonly HeadlessCall[]
  /** Label of the episode in errors (its file name). */
  source?: string
}

export interface RunEpisodeInBrowserResult {
  /** One entry per call: the JSON string the agent would have received. */
  outputs: HeadlessCallOutput[]
  /** The exported full episode (validated and encoded in the page). */
  episode: Uint8Array
  /** `producer.renderer` of capture calls, e.g. `three-r187/webgl2`. */
  renderer: string
  /** The browser's WebGL renderer string. */
  gpu: string
  /** Which WebMCP API the tools were registered on. */
  webmcp: string
}

/**
 * Starts a page server and headless Chromium, opens `episode` in the page with the three.js renderer,
 * registers its tools, runs `calls`, exports the episode and shuts everything down. Throws `RenderError`
 * (`RENDER_HEADLESS_*`) when the browser or page fails; episode problems surface as the page's error text.
 */
export async function runEpisodeInBrowser(options: RunEpisodeInBrowserOptions): Promise<RunEpisodeInBrowserResult> {
  const calls = options.calls.map(call => HeadlessCallSchema.parse(call))
  const session = await openHeadlessSession(options)
  try {
    const response = await session.run({ episode: bytesToBase64(options.episode), source: options.source ?? 'episode', calls })
    return { outputs: response.outputs, episode: base64ToBytes(response.episode), renderer: response.renderer, gpu: session.gpu, webmcp: response.webmcp }
  } finally {
    await session.close()
  }
}
