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
} from './headless-page-messages.ts'
export {
  openReferencePageRenderer,
  REFERENCE_PAGE_RENDERER_NAME,
  REFERENCE_PAGE_TIMEOUT_MS,
  type ReferencePageInput,
  type ReferencePageRenderer,
  type ReferencePageRendererOptions,
} from './reference-pages.ts'
export {
  REFERENCE_PAGE_GLOBAL,
  ReferencePagePartSchema,
  ReferencePageRequestSchema,
  ReferencePageResponseSchema,
  WorldMemberSchema,
  type ReferencePagePart,
  type ReferencePageRequest,
  type ReferencePageResponse,
  type WorldMember,
} from './reference-page-messages.ts'
export {
  openEpisodeSession,
  type EpisodeSession,
  type EpisodeSessionTool,
  type OpenEpisodeSessionOptions,
} from './episode-session.ts'
export { openBrowserPage, type BrowserPage, type OpenBrowserPageOptions } from './browser-page.ts'
export {
  GPU_NEAREST_GLOBAL,
  GpuInfoSchema,
  GpuNearestResponseSchema,
  type GpuInfo,
  type GpuNearestPageApi,
  type GpuNearestRequest,
  type GpuNearestResponse,
} from './gpu-nearest-messages.ts'
export { GPU_BATCH_TIMEOUT_MS, openPageDevice, type OpenPageDeviceOptions, type PageNearestDevice } from './gpu-nearest-device.ts'
