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
] as const

export type WorldErrorCode = (typeof WORLD_ERROR_CODES)[number]

export class WorldError extends AwbError {
  declare readonly code: WorldErrorCode

  constructor(code: WorldErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
