// zod schema of a metrics.jsonl row as this harness writes it (scoring.md §9.2), for readers of the file; no I/O.
import * as z from 'zod'

const Finite = z.number()
const Rotation = z.array(z.array(Finite))

const PartSchema = z.looseObject({
  part_id: z.string(),
  target_part_id: z.string(),
  chamfer: Finite,
  correct: z.boolean(),
})

const CandidateSchema = z.looseObject({
  seed: z.string(),
  chamfer: Finite,
  iterations: z.number().int(),
  converged: z.boolean(),
  rotation: Rotation.optional(),
  translation: z.array(Finite).optional(),
})

const AlignmentSchema = z.looseObject({
  rotation: Rotation,
  translation: z.array(Finite),
  chamfer: Finite,
  seed: z.string(),
  best_iteration: z.number().int(),
  iterations: z.number().int(),
  converged: z.boolean(),
  candidates: z.array(CandidateSchema).optional(),
})

/** One official row: base fields, then scored or error fields. Loose: producers may add fields. */
export const MetricsRowSchema = z.looseObject({
  block: z.string(),
  sample_id: z.string(),
  run: z.string().nullable(),
  duration_seconds: Finite.nullable(),
  usage: z.record(z.string(), z.unknown()).nullable(),
  cost_usd: Finite.nullable(),
  tool_calls: z.number().int().nullable(),
  attempt_finished: z.boolean(),
  status: z.enum(['scored', 'error']),
  error: z.string().optional(),
  SCD: Finite.nullable(),
  PA: Finite,
  SR: Finite,
  protocol_version: z.string().optional(),
  input_protocol: z.string().optional(),
  episode_sha256: z.string().optional(),
  state_index: z.number().int().optional(),
  parts: z.array(PartSchema).optional(),
  alignment: AlignmentSchema.optional(),
  scale_divisor: Finite.optional(),
})

export type MetricsRowRecord = z.infer<typeof MetricsRowSchema>
