// The CLI-agent domain's error class and its stable codes; no behaviour here.
import { AwbError, type AwbErrorOptions } from '../../shared/errors.ts'

export const CLI_AGENT_ERROR_CODES = ['CLI_AGENT_CONFIG_KEY', 'CLI_AGENT_CONFIG_SYNTAX', 'CLI_AGENT_PAGE_TYPE'] as const
export type CliAgentErrorCode = (typeof CLI_AGENT_ERROR_CODES)[number]

/** A CLI agent that cannot be started as asked (bad overrides, unsupported page type); the message says how to fix it. */
export class CliAgentError extends AwbError {
  declare readonly code: CliAgentErrorCode

  constructor(code: CliAgentErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
