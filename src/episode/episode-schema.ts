// The logical episode {manifest, initial, states, calls?, events, trajectory, revision} (§2.3) and its draft-07 validator.
import * as z from 'zod'
import { CallEventSchema, CallSchema } from './call-schema.ts'
import { LogicalFrameSchema, LogicalTraceFrameSchema } from './frame-schema.ts'
import { createJsonSchemaValidator } from './json-schema-validator.ts'
import { ManifestSchema } from './manifest-schema.ts'
import { RESULT_SCHEMAS } from './result-schemas.ts'
import type { CallName } from './call-schema.ts'
import type { JsonSchemaValidator } from './json-schema-validator.ts'

export const LogicalEpisodeSchema = z.strictObject({
  manifest: ManifestSchema,
  initial: LogicalFrameSchema,
  states: z.array(LogicalFrameSchema),
  calls: z.array(CallSchema).optional(),
  events: z.array(CallEventSchema),
  trajectory: z.array(LogicalTraceFrameSchema),
  /** In-memory edit counter; not stored, decoded as 0. */
  revision: z.int().min(0),
})

export type LogicalEpisode = z.infer<typeof LogicalEpisodeSchema>

/** Validator of the whole logical episode (manifest with the optional MJB `model`). */
export const logicalEpisodeValidator = createJsonSchemaValidator(LogicalEpisodeSchema)

/** The draft-07 JSON Schema of the logical episode. */
export const EPISODE_JSON_SCHEMA: Record<string, unknown> = logicalEpisodeValidator.jsonSchema

const _resultValidators = new Map<CallName, JsonSchemaValidator<unknown>>()

/** The validator of a call name's stored result; compiled on first use. */
export function resultValidator(name: CallName): JsonSchemaValidator<unknown> {
  let validator = _resultValidators.get(name)
  if (validator === undefined) {
    validator = createJsonSchemaValidator(RESULT_SCHEMAS[name])
    _resultValidators.set(name, validator)
  }
  return validator
}
