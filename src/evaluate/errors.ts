// Error type and codes of the evaluation glue (poses files, final-vs-initial checks, eval runs); no behaviour.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

export const EVALUATE_ERROR_CODES = [
  'EVALUATE_POSES_INVALID',
  'EVALUATE_POSES_PARTS',
  'EVALUATE_FINAL_MISMATCH',
  'EVALUATE_ATTEMPT_UNUSABLE',
  'EVALUATE_RUN_MISMATCH',
  'EVALUATE_HASH_CHANGED',
  'EVALUATE_ROW_INVALID',
  /** The attempt's folder fails its seal (a changed, planted or removed file, an untrusted seal): not scored. */
  'EVALUATE_SEAL_BROKEN',
] as const

export type EvaluateErrorCode = (typeof EVALUATE_ERROR_CODES)[number]

export class EvaluateError extends AwbError {
  declare readonly code: EvaluateErrorCode

  constructor(code: EvaluateErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
