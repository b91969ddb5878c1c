// The episode validators let ajv alone decide validity and hand the value back as zod's type. That is sound only while
// the zod schemas hold nothing their JSON Schema leaves out: refinements, transforms, defaults. This walks them all.
import { expect, test } from 'vitest'
import * as z from 'zod'
import { LogicalEpisodeSchema, ManifestSchema, RESULT_SCHEMAS } from '../../../src/episode/index.ts'

/** zod node types with behaviour a draft-07 JSON Schema cannot carry (ajv would accept what zod refuses, or differ). */
const BEYOND_JSON_SCHEMA = new Set(['pipe', 'transform', 'default', 'prefault', 'catch', 'custom', 'lazy', 'promise', 'function'])

/** Paths of every node or check in `schema` that JSON Schema cannot express. */
function beyondJsonSchema(schema: z.ZodType, path: string, out: string[] = []): string[] {
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

test('the episode and result schemas hold no refinement, transform or default, so ajv alone decides validity', () => {
  const schemas: Array<[string, z.ZodType]> = [['episode', LogicalEpisodeSchema], ['manifest', ManifestSchema], ...Object.entries(RESULT_SCHEMAS)]
  expect(schemas.flatMap(([name, schema]) => beyondJsonSchema(schema, name))).toEqual([])
})

test('the walk does find what it looks for', () => {
  const probe = z.strictObject({ a: z.string().refine(s => s.length > 1), b: z.array(z.number().default(1)), c: z.string().transform(Number).optional() })
  expect(beyondJsonSchema(probe, 'probe')).toEqual(['probe.a (refinement)', 'probe.b/element (default)', 'probe.c/innerType (pipe)', 'probe.c/innerType/out (transform)'])
})
