// The scoring domain's error class and its stable codes; no recovery logic (callers turn errors into error rows).
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

/** Every code a `ScoringError` can carry (scoring.md §8.2). */
export const SCORING_ERROR_CODES = [
  'SCORING_NONFINITE_POINTS',
  'SCORING_BAD_CLOUD_SIZE',
  'SCORING_NONFINITE_GT',
  'SCORING_ZERO_QUATERNION',
  'SCORING_NONFINITE_POSE',
  'SCORING_BAD_PARTITION',
  'SCORING_BAD_DIVISOR',
  'SCORING_DEGENERATE_PART',
  'SCORING_BAD_INPUT',
  'SCORING_NONFINITE_RESULT',
  'SCORING_WORKER_FAILED',
  'SCORING_GPU_UNAVAILABLE',
  'SCORING_GPU_FAILED',
  'SCORING_GPU_UNTRUSTED',
] as const

export type ScoringErrorCode = (typeof SCORING_ERROR_CODES)[number]

/** A sample that cannot be scored: degenerate geometry or invalid ground truth / poses. */
export class ScoringError extends AwbError {
  declare readonly code: ScoringErrorCode

  constructor(code: ScoringErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
