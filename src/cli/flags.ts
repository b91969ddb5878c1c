// Parses cac's options object with a zod schema once, turning bad flags into usage errors (exit 2).
import * as z from 'zod'
import { DEFAULT_SCORING_BACKEND, ScoringBackendChoiceSchema, type ScoringBackendChoice } from '../scoring/gpu/index.ts'
import { ICP_KERNELS } from '../scoring/index.ts'
import { MAX_SCORING_WORKERS } from '../scoring/workers/index.ts'
// The variables' table alone (src/settings' light entry): a command starts without loading the run's settings.
import { readVariable, type Environment } from '../settings/variables/index.ts'
import { UsageError } from './usage-error.ts'

/** `--workers <n>`: a whole number from 0 to MAX_SCORING_WORKERS (cac passes numbers for numeric text). */
export const WorkersFlagSchema = z.coerce.number().int().min(0).max(MAX_SCORING_WORKERS, `at most ${MAX_SCORING_WORKERS} scoring workers`).optional()

/** `--kernel <name>`: which ICP objective implementation scores (all give the same bits; `js` is the reference). */
export const KernelFlagSchema = z.enum(ICP_KERNELS).optional()

/** `--backend <auto|cpu|gpu>`: the scoring backend (absent: AWB_SCORING_BACKEND, else auto); results are the same bits. */
export const BackendFlagSchema = ScoringBackendChoiceSchema.optional()

/**
 * The backend a command scores with: `--backend`, else AWB_SCORING_BACKEND (parsed by src/settings), else auto; a bad
 * variable is a usage error.
 */
export function scoringBackend(flag: ScoringBackendChoice | undefined, env: Environment = process.env): ScoringBackendChoice {
  if (flag !== undefined) return flag
  try {
    return readVariable(env, 'AWB_SCORING_BACKEND') ?? DEFAULT_SCORING_BACKEND
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}

export function parseFlags<T extends z.ZodType>(command: string, schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value ?? {})
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const flag = issue === undefined || issue.path.length === 0 ? '' : `--${String(issue.path[0])}: `
  throw new UsageError(`${command}: ${flag}${issue?.message ?? 'invalid options'}`)
}
