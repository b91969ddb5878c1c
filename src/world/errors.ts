// Error type and codes of the world runtime (MuJoCo model compilation, state restore); no behaviour here.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

export const WORLD_ERROR_CODES = [
  'WORLD_ENGINE_VERSION',
  'WORLD_ASSET_PATH',
  'WORLD_MODEL_MISSING',
  'WORLD_COMPILE',
  'WORLD_UNSUPPORTED',
  'WORLD_STATE',
  'WORLD_BODY_MISSING',
  /** A tool call failed; the agent reads the message in the §4.4 envelope. */
  'WORLD_TOOL_FAILED',
  /** Scene configuration was changed after recording started (§2.14 rule 2). */
  'WORLD_LOCKED',
] as const

export type WorldErrorCode = (typeof WORLD_ERROR_CODES)[number]

export class WorldError extends AwbError {
  declare readonly code: WorldErrorCode

  constructor(code: WorldErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
