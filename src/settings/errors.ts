// The settings domain's error class and its stable codes: a plugin option or AWB_* variable the run cannot use; no logic.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

export const SETTINGS_ERROR_CODES = [
  /** A value that does not parse or breaks its schema (a flag that is not 1/0, JSON that is not JSON, a range). */
  'SETTINGS_INVALID',
  /** A threshold or gate key that names no block or source of the benchmark. */
  'SETTINGS_UNKNOWN_KEY',
  /** A path setting that must name something finished (AWB_BASELINE: a run with metrics.jsonl) and does not. */
  'SETTINGS_NOT_FOUND',
] as const

export type SettingsErrorCode = (typeof SETTINGS_ERROR_CODES)[number]

/** A setting the run refuses at start; the message names the option or variable and shows an accepted value. */
export class SettingsError extends AwbError {
  declare readonly code: SettingsErrorCode

  constructor(code: SettingsErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
