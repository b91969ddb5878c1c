// Public entry of the headless driver (Node only: Vite + Playwright Chromium); page code must not import it.
export { runEpisodeInBrowser, type RunEpisodeInBrowserOptions, type RunEpisodeInBrowserResult } from './run-episode.ts'
export { HEADLESS_RUN_TIMEOUT_MS, openHeadlessSession, type HeadlessSession, type HeadlessSessionOptions } from './browser-session.ts'
export {
  base64ToBytes,
  bytesToBase64,
  HeadlessCallOutputSchema,
  HeadlessCallSchema,
  HeadlessRunRequestSchema,
  HeadlessRunResponseSchema,
  type HeadlessCall,
  type HeadlessCallOutput,
  type HeadlessRunRequest,
  type HeadlessRunResponse,
} from './protocol.ts'
