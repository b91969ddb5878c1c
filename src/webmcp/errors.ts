// Error type and codes of WebMCP registration in the page; no registration logic here.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

/** Every code a `WebMcpError` can carry, with what it stands for. */
export const WEBMCP_ERROR_CODES = {
  WEBMCP_UNAVAILABLE: 'neither document.modelContext nor navigator.modelContext exists and the polyfill could not be installed',
  WEBMCP_REGISTER_FAILED: 'the browser API rejected a tool registration',
  WEBMCP_TOOL_NOT_REGISTERED: 'no tool of that name is registered in the current generation',
  WEBMCP_DISPOSED: 'the tool registry was used after dispose()',
} as const

export type WebMcpErrorCode = keyof typeof WEBMCP_ERROR_CODES

export class WebMcpError extends AwbError {
  declare readonly code: WebMcpErrorCode

  constructor(code: WebMcpErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
