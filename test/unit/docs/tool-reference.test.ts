// docs/tools.md is what `npm run docs:tools` writes today: regenerated in memory (real tool calls on awb-mini, both
// MCP surfaces on a real endpoint) and compared with the committed file; every current tool has its section.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildToolReference, TOOL_REFERENCE_PATH } from '../../../scripts/tool-reference/build-reference.ts'
import { GENERATED_BANNER } from '../../../scripts/tool-reference/render-reference.ts'
import { CURRENT_TOOL_NAMES } from '../../../src/world/index.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

let generated = ''
let committed = ''
beforeAll(async () => {
  generated = await buildToolReference()
  committed = await readFile(resolve(ROOT, TOOL_REFERENCE_PATH), 'utf8')
})

describe('the tool reference (docs/tools.md)', () => {
  it('is what the generator writes today', () => {
    expect(committed === generated, `${TOOL_REFERENCE_PATH} is out of date: run \`npm run docs:tools\` and commit it`).toBe(true)
  })

  it('says it is generated, and by what, on its first line', () => {
    expect(generated.split('\n')[0]).toBe(GENERATED_BANNER)
    expect(GENERATED_BANNER).toContain('npm run docs:tools')
  })

  it('has one section per current tool, in catalog order, each with its example', () => {
    const sections = [...generated.matchAll(/^### (\w+)$/gm)].map(match => match[1])
    expect(sections.filter(name => CURRENT_TOOL_NAMES.some(tool => tool === name))).toEqual(CURRENT_TOOL_NAMES)
    for (const tool of CURRENT_TOOL_NAMES) expect(generated).toContain(`**Example** (benchmark episode): \`${tool}\``)
  })

  it('has the sections on placement, page agents and MCP', () => {
    for (const heading of ['## Where a part is', '## Calling tools from a page agent', '## Calling tools over MCP', '### The benchmark surface', '### The direct surface']) {
      expect(generated).toContain(`\n${heading}\n`)
    }
  })
})
