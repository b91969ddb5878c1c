// A tool call's input is checked by ajv alone (its messages are the ones agents see, §4.3) and then used as the
// command's zod type. That is sound only while no command schema holds what its JSON Schema leaves out.
import { expect, test } from 'vitest'
import { COMMAND_INPUT_SCHEMAS } from '../../../src/world/tool-catalog.ts'
import { beyondJsonSchema } from '../../helpers/beyond-json-schema.ts'

test('no command input schema holds a refinement, transform or default, so a valid input already has its type', () => {
  const names = Object.keys(COMMAND_INPUT_SCHEMAS)
  expect(names.length).toBeGreaterThan(14)
  expect(Object.entries(COMMAND_INPUT_SCHEMAS).flatMap(([name, schema]) => beyondJsonSchema(schema, name))).toEqual([])
})
