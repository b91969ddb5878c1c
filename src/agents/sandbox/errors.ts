// The agent sandbox's error class and its stable codes; no behaviour here.
import { AwbError, type AwbErrorOptions } from '../../shared/errors.ts'

export const SANDBOX_ERROR_CODES = ['SANDBOX_UNAVAILABLE'] as const
export type SandboxErrorCode = (typeof SANDBOX_ERROR_CODES)[number]

/** An agent process that may not start (its sandbox cannot start here) or a malformed sandbox setting; the message says how to fix it. */
export class SandboxError extends AwbError {
  declare readonly code: SandboxErrorCode

  constructor(code: SandboxErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
