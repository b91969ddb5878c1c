// Compiles zod schemas to draft-07 JSON Schema and validates with ajv; it knows nothing about episodes.
import Ajv from 'ajv'
import type { ErrorObject } from 'ajv'
import * as z from 'zod'

/** One failed rule: where (`/calls/2/result/index`) and what (`must be integer`). */
export interface SchemaIssue {
  path: string
  message: string
}

export type SchemaCheck<T> = { ok: true, value: T } | { ok: false, issues: SchemaIssue[] }

export interface JsonSchemaValidator<T> {
  /** The draft-07 JSON Schema the values are checked against. */
  readonly jsonSchema: Record<string, unknown>
  check(value: unknown): SchemaCheck<T>
}

let _ajv: Ajv | undefined

function sharedAjv(): Ajv {
  // `allErrors` stays off: the first broken rule is reported, and validation of big archives stays cheap.
  _ajv ??= new Ajv({ strict: true, allowUnionTypes: true })
  return _ajv
}

/** Draft-07 JSON Schema of a zod schema (strict objects become `additionalProperties: false`). */
export function toDraft07(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-7' })
}

/**
 * A validator whose JSON Schema is generated from `schema`, so the TypeScript type (`z.infer`) and the
 * JSON Schema cannot diverge. ajv alone decides validity: its messages are the JSON Schema ones the error
 * texts quote, and it enforces `uniqueItems`, which zod cannot. The value is then returned as `z.infer<S>`
 * without a second zod pass, which would walk every frame and call again (about ten times ajv's own time)
 * and could reject nothing more: the episode schemas hold no refinement, transform or default, the only zod
 * rules a JSON Schema leaves out (test/unit/episode/json-schema-validator.test.ts keeps it so).
 */
export function createJsonSchemaValidator<S extends z.ZodType>(schema: S): JsonSchemaValidator<z.infer<S>> {
  const jsonSchema = toDraft07(schema)
  let compiled: ReturnType<Ajv['compile']> | undefined
  return {
    jsonSchema,
    check(value) {
      compiled ??= sharedAjv().compile(jsonSchema)
      if (!compiled(value)) return { ok: false, issues: (compiled.errors ?? []).map(formatAjvError) }
      // ajv accepted it against `schema`'s own JSON Schema, which leaves nothing of `schema` out (see above).
      return { ok: true, value: value as z.infer<S> }
    },
  }
}

function formatAjvError(error: ErrorObject): SchemaIssue {
  const params: Record<string, unknown> = error.params
  const detail = typeof params.additionalProperty === 'string'
    ? ` (unknown key "${params.additionalProperty}")`
    : params.allowedValue !== undefined ? ` (${JSON.stringify(params.allowedValue)})` : ''
  return { path: error.instancePath, message: `${error.message ?? 'is invalid'}${detail}` }
}
