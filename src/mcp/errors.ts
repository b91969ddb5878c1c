// The MCP domain's error class and its stable codes; no behaviour here.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

export const MCP_ERROR_CODES = [
  'MCP_TOOL_TIMEOUT',
  'MCP_HTTP_LISTEN',
  'MCP_BRIDGE_CONNECT',
  'MCP_PAGE_RELAY',
] as const
export type McpErrorCode = (typeof MCP_ERROR_CODES)[number]

/** A failure of the MCP surfaces or their transports (stable `code`, message says where and what to do). */
export class McpError extends AwbError {
  declare readonly code: McpErrorCode

  constructor(code: McpErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
