import { expect, test } from 'vitest'
import { EPISODE_JSON_SCHEMA } from '../../../src/episode/index.ts'

/** Every object schema reachable from `schema`, with its JSON path. */
function objectSchemas(schema: unknown, path = '#', out: Array<[string, Record<string, unknown>]> = []): Array<[string, Record<string, unknown>]> {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => objectSchemas(item, `${path}/${i}`, out))
  } else if (typeof schema === 'object' && schema !== null) {
    const record: Record<string, unknown> = Object.fromEntries(Object.entries(schema))
    if (record.type === 'object' && typeof record.properties === 'object') out.push([path, record])
    for (const [key, value] of Object.entries(record)) objectSchemas(value, `${path}/${key}`, out)
  }
  return out
}

test('the logical episode schema is draft-07 with the documented top-level keys', () => {
  expect(EPISODE_JSON_SCHEMA.$schema).toBe('http://json-schema.org/draft-07/schema#')
  expect(EPISODE_JSON_SCHEMA.required).toEqual(['manifest', 'initial', 'states', 'events', 'trajectory', 'revision'])
})

test('every object with declared properties forbids additional properties, manifest levels included', () => {
  const objects = objectSchemas(EPISODE_JSON_SCHEMA)
  const manifestLevels = objects.filter(([path]) => path.startsWith('#/properties/manifest'))
  expect(manifestLevels.length).toBeGreaterThanOrEqual(6)
  for (const [path, schema] of objects) expect({ path, additionalProperties: schema.additionalProperties }).toEqual({ path, additionalProperties: false })
})

test('the manifest schema allows the optional MJB model declaration', () => {
  const manifest = objectSchemas(EPISODE_JSON_SCHEMA).find(([path]) => path === '#/properties/manifest')?.[1]
  expect(manifest?.properties).toHaveProperty('model')
  expect(manifest?.required).not.toContain('model')
})
