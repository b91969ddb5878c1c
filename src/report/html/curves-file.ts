// Node only: reads a run's curves.json (written by `awb curves`) with a schema; no scoring.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod'
import type { RunCurves } from '../../evaluate/curves/index.ts'
import { isNotFoundError } from '../../shared/fs-errors.ts'
import { ReportError } from '../errors.ts'

const Nullable = <T extends z.ZodType>(schema: T) => schema.nullable()
const StepSchema = z.strictObject({
  call_index: z.number().int(), tool: z.string(), call_status: z.enum(['completed', 'error']), elapsed_seconds: z.number(),
  state_index: z.number().int(), status: z.enum(['scored', 'error']), error: Nullable(z.string()), SCD: Nullable(z.number()),
  PA: z.number(), SR: z.number(), parts_correct: z.number().int(), parts_total: z.number().int(),
})
const FiguresSchema = z.strictObject({
  steps: z.number().int(), final_SR: Nullable(z.number()), final_PA: Nullable(z.number()), final_SCD: Nullable(z.number()),
  best_SR: Nullable(z.number()), best_PA: Nullable(z.number()), best_SCD: Nullable(z.number()), best_call_index: Nullable(z.number().int()),
  steps_after_best: Nullable(z.number().int()), first_SR1_call_index: Nullable(z.number().int()), regressed: z.boolean(),
})
const StateSchema = z.strictObject({
  state_index: z.number().int(), correct: z.array(z.boolean()), target_part_ids: z.array(z.string()),
  rotation: Nullable(z.array(z.array(z.number()))), translation: Nullable(z.array(z.number())),
})
const CurveSchema = z.strictObject({
  block: z.string(), sample_id: z.string(), part_ids: z.array(z.string()), scale_divisor: z.number(), steps: z.array(StepSchema),
  figures: FiguresSchema, states: z.array(StateSchema), final_state_index: z.number().int(), episode_sha256: z.string(),
  cost: z.strictObject({ states_scored: z.number().int(), scoring_seconds: z.number(), total_seconds: z.number() }),
})
const FailedSchema = z.strictObject({ block: z.string(), sample_id: z.string(), error: z.string() })

/** Our own format: strict (scoring.md is not involved; `awb curves` is the only writer). */
export const RunCurvesSchema = z.strictObject({
  run: z.string(),
  samples: z.array(z.union([CurveSchema, FailedSchema])),
  cost: z.strictObject({ seconds: z.number(), steps: z.number().int(), states_scored: z.number().int(), scoring_seconds: z.number(), workers: z.number().int(), backend: z.string().default('not recorded') }),
})

/** `dir/curves.json`, or undefined when the run has none yet. Throws `ReportError` when it is not ours. */
export async function readCurvesFile(dir: string): Promise<RunCurves | undefined> {
  const path = join(dir, 'curves.json')
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if (isNotFoundError(error)) return undefined
    // Not absence: a curves.json we may not read would otherwise be recomputed, or the report written without it.
    throw new ReportError('REPORT_INPUT_INVALID', `curves.json cannot be read (${error instanceof Error ? error.message : String(error)}); check its permissions, or remove it and run \`awb curves ${dir}\``, { file: path, cause: error })
  }
  const parsed = RunCurvesSchema.safeParse(JSON.parse(text))
  if (!parsed.success) throw new ReportError('REPORT_INPUT_INVALID', `${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'invalid'}; recompute it with \`awb curves ${dir}\``, { file: path })
  return parsed.data
}
