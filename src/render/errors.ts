// Error type and codes of the capture renderer (three.js over WebGL2); no rendering logic here.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

/** Every code a `RenderError` can carry, with what it stands for. */
export const RENDER_ERROR_CODES = {
  RENDER_WEBGL_UNAVAILABLE: 'the page could not create a WebGL2 context for captures',
  RENDER_MODEL_INVALID: 'the compiled model holds geometry the renderer cannot build (bad mesh reference or face index)',
  RENDER_CAMERA_INVALID: 'the agent camera is not finite or its position and target are closer than 0.001',
  RENDER_ENCODE: 'the rendered frame could not be encoded as PNG',
  RENDER_DISPOSED: 'the renderer was used after dispose()',
  RENDER_HEADLESS_LAUNCH: 'the headless driver could not start Chromium or the Vite page server',
  RENDER_HEADLESS_PAGE: 'the headless page failed to load or to run the episode',
  RENDER_HEADLESS_TIMEOUT: 'the headless run did not finish within its time limit',
} as const

export type RenderErrorCode = keyof typeof RENDER_ERROR_CODES

export class RenderError extends AwbError {
  declare readonly code: RenderErrorCode

  constructor(code: RenderErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
