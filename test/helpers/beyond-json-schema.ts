// Which parts of a zod schema a draft-07 JSON Schema cannot carry (refinements, transforms, defaults): where ajv alone
// decides validity and the value is then used as zod's type, the schema must hold none of them.
import * as z from 'zod'

/** zod node types with behaviour a draft-07 JSON Schema cannot carry (ajv would accept what zod refuses, or differ). */
const BEYOND_JSON_SCHEMA = new Set(['pipe', 'transform', 'default', 'prefault', 'catch', 'custom', 'lazy', 'promise', 'function'])

/** Paths of every node or check in `schema` that JSON Schema cannot express. */
export function beyondJsonSchema(schema: z.ZodType, path: string, out: string[] = []): string[] {
  const def = schema.def as unknown as Record<string, unknown> & { type: string, checks?: Array<{ _zod: { def: { check: string } } }> }
  if (BEYOND_JSON_SCHEMA.has(def.type)) out.push(`${path} (${def.type})`)
  for (const check of def.checks ?? []) if (check._zod.def.check === 'custom') out.push(`${path} (refinement)`)
  const children: Array<[string, unknown]> = [
    ...Object.entries((def.shape as Record<string, unknown> | undefined) ?? {}).map(([key, child]): [string, unknown] => [`${path}.${key}`, child]),
    ...((def.options as unknown[] | undefined) ?? []).map((child, i): [string, unknown] => [`${path}|${i}`, child]),
    ...((def.items as unknown[] | undefined) ?? []).map((child, i): [string, unknown] => [`${path}[${i}]`, child]),
    ...(['catchall', 'element', 'rest', 'keyType', 'valueType', 'innerType', 'left', 'right', 'in', 'out'] as const)
      .map((key): [string, unknown] => [`${path}/${key}`, def[key]]),
  ]
  for (const [at, child] of children) if (child instanceof z.ZodType) beyondJsonSchema(child, at, out)
  return out
}
