// The official per-sample metrics row (scoring.md §8.2, §9.2): its one zod schema, the types inferred from it and
// the builders of its parts. Every producer (`awb eval`, the harness) and reader (the suite, the reporter, resumed
// runs, reports) goes through this file. Page-safe: no I/O, no scoring.
import * as z from 'zod'
import type { SampleScore } from '../../scoring/index.ts'
import { EvaluateError } from '../errors.ts'

const Finite = z.number()
const Rotation = z.array(z.array(Finite))

/** One part's match (§7): the part, the ground-truth part it was matched to, its Chamfer and whether it is correct. */
export const PartRowSchema = z.object({
  part_id: z.string(),
  target_part_id: z.string(),
  chamfer: Finite,
  correct: z.boolean(),
})

const CandidateSchema = z.object({
  seed: z.string(),
  chamfer: Finite,
  iterations: z.number().int(),
  converged: z.boolean(),
  rotation: Rotation.optional(),
  translation: z.array(Finite).optional(),
})

/** The alignment record (§6.5), `candidates` included unless a producer dropped them. */
export const AlignmentRowSchema = z.object({
  rotation: Rotation,
  translation: z.array(Finite),
  chamfer: Finite,
  seed: z.string(),
  best_iteration: z.number().int(),
  iterations: z.number().int(),
  converged: z.boolean(),
  candidates: z.array(CandidateSchema).optional(),
})

/** The base fields every row carries (§9.2). */
export const BaseFieldsSchema = z.object({
  block: z.string(),
  sample_id: z.string(),
  /** The run directory holding the selected attempt. */
  run: z.string().nullable(),
  duration_seconds: Finite.nullable(),
  usage: z.record(z.string(), z.unknown()).nullable(),
  cost_usd: Finite.nullable(),
  tool_calls: z.number().int().nullable(),
  /** False when the selected attempt is still `running`. */
  attempt_finished: z.boolean(),
})
export type BaseFields = z.infer<typeof BaseFieldsSchema>

/** The fields a scored row adds (§9.2). */
export const ScoredFieldsSchema = z.object({
  status: z.literal('scored'),
  SCD: Finite,
  PA: Finite,
  SR: Finite,
  /** `assembly-evaluation-v1`. */
  protocol_version: z.string(),
  /** The package's own marker when it is not the output marker (benchmark-package.md §12). */
  input_protocol: z.string().optional(),
  /** SHA-256 of final.episode.zip. */
  episode_sha256: z.string(),
  /** Index of the scored state. */
  state_index: z.number().int(),
  parts: z.array(PartRowSchema),
  alignment: AlignmentRowSchema,
  scale_divisor: Finite,
})
export type ScoredFields = z.infer<typeof ScoredFieldsSchema>

/** The fields an unscorable sample's row adds: SCD null, PA 0, SR 0 (the reference convention, §8.2). */
export const ErrorFieldsSchema = z.object({
  status: z.literal('error'),
  /** `<ErrorKind>: <message>`; the kind is the harness's error class name. */
  error: z.string(),
  SCD: z.null(),
  PA: z.literal(0),
  SR: z.literal(0),
})
export type ErrorFields = z.infer<typeof ErrorFieldsSchema>

/**
 * One official row: base fields, then scored or error fields. Loose objects: rows of other producers (the reference
 * runner's metrics.jsonl as a baseline, `awb score`'s extras) may carry more fields, which readers ignore.
 */
export const MetricsRowSchema = z.discriminatedUnion('status', [
  z.looseObject({ ...BaseFieldsSchema.shape, ...ScoredFieldsSchema.shape }),
  z.looseObject({ ...BaseFieldsSchema.shape, ...ErrorFieldsSchema.shape }),
])
export type MetricsRow = z.infer<typeof MetricsRowSchema>
export type ScoredRow = Extract<MetricsRow, { status: 'scored' }>

/**
 * Parses a row that crossed a boundary (a file, a browser command, a test's metadata). Throws `EvaluateError`
 * `EVALUATE_ROW_INVALID` naming where it came from and every field that is wrong.
 */
export function parseMetricsRow(value: unknown, where: { file?: string; what: string }): MetricsRow {
  const parsed = MetricsRowSchema.safeParse(value)
  if (parsed.success) return parsed.data
  return invalidRow(parsed.error, where)
}

function invalidRow(error: z.ZodError, where: { file?: string; what: string }): never {
  throw new EvaluateError('EVALUATE_ROW_INVALID', `${where.what} is not an official metrics row (scoring.md §9.2): ${describeIssues(error)}`, where.file === undefined ? {} : { file: where.file })
}

/** `field.path: message` for each zod issue, `; `-separated. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map(issue => `${issue.path.length === 0 ? '(row)' : issue.path.join('.')}: ${issue.message}`).join('; ')
}

/** The score fields of a scored row, before the protocol and episode fields; `alignment.candidates` dropped unless asked for. */
export function scoredFields(score: SampleScore, options: { includeCandidates: boolean }): { status: 'scored' } & SampleScore {
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
