// Error type and codes of run reporting (report inputs, baselines, HTML output); no behaviour.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

export const REPORT_ERROR_CODES = [
  'REPORT_INPUT_INVALID',
  'REPORT_INPUT_MISSING',
  'REPORT_BASELINE_MISMATCH',
  'REPORT_BUILD_FAILED',
] as const

export type ReportErrorCode = (typeof REPORT_ERROR_CODES)[number]

export class ReportError extends AwbError {
  declare readonly code: ReportErrorCode

  constructor(code: ReportErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
