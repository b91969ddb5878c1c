// The episode validators let ajv alone decide validity and hand the value back as zod's type. That is sound only while
// the zod schemas hold nothing their JSON Schema leaves out: refinements, transforms, defaults. This walks them all.
import { expect, test } from 'vitest'
import * as z from 'zod'
import { LogicalEpisodeSchema, ManifestSchema, RESULT_SCHEMAS } from '../../../src/episode/index.ts'
import { beyondJsonSchema } from '../../helpers/beyond-json-schema.ts'

test('the episode and result schemas hold no refinement, transform or default, so ajv alone decides validity', () => {
  const schemas: Array<[string, z.ZodType]> = [['episode', LogicalEpisodeSchema], ['manifest', ManifestSchema], ...Object.entries(RESULT_SCHEMAS)]
  expect(schemas.flatMap(([name, schema]) => beyondJsonSchema(schema, name))).toEqual([])
})

test('the walk does find what it looks for', () => {
  const probe = z.strictObject({ a: z.string().refine(s => s.length > 1), b: z.array(z.number().default(1)), c: z.string().transform(Number).optional() })
  expect(beyondJsonSchema(probe, 'probe')).toEqual(['probe.a (refinement)', 'probe.b/element (default)', 'probe.c/innerType (pipe)', 'probe.c/innerType/out (transform)'])
})
