// Error type and codes of run records (run.json, result.json, seals, chains and merges, attempt selection); no behaviour here.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

export const RUN_ERROR_CODES = [
  'RUN_NOT_FOUND',
  'RUN_RECORD_INVALID',
  'RUN_CHAIN_CYCLE',
  'RUN_OUTPUT_EXISTS',
  'RUN_OUTPUT_INSIDE_INPUT',
  'RUN_STILL_RUNNING',
  /** A sample's conversation log would grow past its cap; the record was refused. */
  'RUN_RECORD_CAP',
  /** A write to a sample whose records were sealed (it has ended); sealed records are never changed. */
  'RUN_SAMPLE_SEALED',
  /** A merged run (`--merge-reports`) names a shard run that is not beside it: its rows cannot be read. */
  'RUN_MERGE_SHARD_MISSING',
] as const

export type RunErrorCode = (typeof RUN_ERROR_CODES)[number]

export class RunError extends AwbError {
  declare readonly code: RunErrorCode

  constructor(code: RunErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
