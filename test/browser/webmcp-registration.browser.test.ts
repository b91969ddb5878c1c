import { describe, expect, it } from 'vitest'
import {
  EXPIRED_REGISTRATION_RESULT,
  listContextTools,
  resolveModelContext,
  type ToolHost,
  type ToolHostDefinition,
  WebMcpToolRegistry,
} from '../../src/webmcp/index.ts'

const DEFINITIONS: ToolHostDefinition[] = [
  { name: 'get_state', description: 'Read latest live object states.', inputSchema: { type: 'object', properties: {}, additionalProperties: false }, annotations: { readOnlyHint: true } },
  { name: 'translate_objects', description: 'Translate explicit object IDs.', inputSchema: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } } }, required: ['ids'], additionalProperties: false }, annotations: { readOnlyHint: false } },
]

function echoHost(definitions = DEFINITIONS): ToolHost & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    enabledToolDefinitions: () => definitions,
    callTool: async (name, input, { actor }) => {
      calls.push(`${actor}:${name}`)
      return JSON.stringify({ tool: name, input })
    },
  }
}

/** Chromium's `executeTool(tool, inputJson)` extension, which the polyfill implements; typed here for the test. */
interface ExecutingContext {
  getTools(): Promise<{ name: string }[]>
  executeTool(tool: { name: string }, inputJson: string): Promise<string>
}

describe('WebMCP registration on the page API', () => {
  // One registry for the file: the page API is shared, and each test starts a new generation on it.
  const registry = WebMcpToolRegistry.open()

  it('finds document.modelContext, installing the polyfill when the browser has none', () => {
    const resolved = resolveModelContext()
    expect(['document', 'polyfill']).toContain(registry.source)
    expect(resolved.context).toBe(registry.context)
    expect(Reflect.get(document, 'modelContext')).toBe(registry.context)
  })

  it('lists the registered tools through the API with names, descriptions, schemas and read-only hints', async () => {
    await registry.register(echoHost())
    const listed = await listContextTools(registry.context)
    expect(listed?.map(t => [t.name, t.description, t.annotations?.readOnlyHint])).toEqual([
      ['get_state', 'Read latest live object states.', true],
      ['translate_objects', 'Translate explicit object IDs.', false],
    ])
    expect(listed?.[1]?.inputSchema).toEqual(DEFINITIONS[1]?.inputSchema)
  })

  it('invokes through the API and returns the runtime JSON string unchanged', async () => {
    const host = echoHost()
    await registry.register(host)
    const api = registry.context as unknown as ExecutingContext
    const tool = (await api.getTools()).find(t => t.name === 'translate_objects')
    expect(tool).toBeDefined()
    const answer = await api.executeTool(tool as { name: string }, JSON.stringify({ ids: ['part-0001'] }))
    expect(answer).toBe(JSON.stringify({ tool: 'translate_objects', input: { ids: ['part-0001'] } }))
    expect(await registry.invokeTool('get_state', {})).toBe(JSON.stringify({ tool: 'get_state', input: {} }))
    expect(host.calls).toEqual(['agent:translate_objects', 'agent:get_state'])
  })

  it('replaces the previous generation: listed once, stale execute answers expired without reaching the runtime', async () => {
    const oldHost = echoHost()
    const old = await registry.register(oldHost)
    const newHost = echoHost([DEFINITIONS[0] as ToolHostDefinition])
    await registry.register(newHost)
    expect((await listContextTools(registry.context))?.map(t => t.name)).toEqual(['get_state'])
    expect(await old.tools[0]?.execute({})).toBe(EXPIRED_REGISTRATION_RESULT)
    expect(oldHost.calls).toEqual([])
    expect(await registry.invokeTool('get_state')).toContain('"tool":"get_state"')
    await expect(registry.invokeTool('translate_objects', { ids: ['x'] })).rejects.toMatchObject({ code: 'WEBMCP_TOOL_NOT_REGISTERED' })
  })

  it('unregisters on abort: nothing stays listed after unregister()', async () => {
    await registry.register(echoHost())
    await registry.unregister()
    expect(await listContextTools(registry.context)).toEqual([])
    expect(registry.listTools()).toEqual([])
  })
})
