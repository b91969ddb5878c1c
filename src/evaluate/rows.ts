// Builds the official per-sample row shapes (scoring.md §8.2, §9.2) from a score or an error; computes nothing.
import type { SampleScore } from '../scoring/index.ts'

/** The score fields of a scored row; `alignment.candidates` is dropped unless asked for. */
export type ScoredFields = { status: 'scored' } & SampleScore

/** An unscorable sample: SCD null, PA 0, SR 0 (the reference convention). */
export interface ErrorFields {
  status: 'error'
  /** `<ErrorKind>: <message>`; the kind is the harness's error class name. */
  error: string
  SCD: null
  PA: 0
  SR: 0
}

export function scoredFields(score: SampleScore, options: { includeCandidates: boolean }): ScoredFields {
  if (options.includeCandidates) return { status: 'scored', ...score }
  const { candidates: _dropped, ...alignment } = score.alignment
  return { status: 'scored', ...score, alignment }
}

export function errorFields(error: unknown): ErrorFields {
  return { status: 'error', error: describeError(error), SCD: null, PA: 0, SR: 0 }
}

/** `<ErrorKind>: <message>`, e.g. `ScoringError: part "leg": non-finite point`. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  return `Error: ${String(error)}`
}
