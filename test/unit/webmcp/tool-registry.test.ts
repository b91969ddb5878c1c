import { describe, expect, it } from 'vitest'
import { EXPIRED_REGISTRATION_RESULT, type ModelContextLike, type ToolHost, type ToolHostDefinition, type WebMcpTool, WebMcpToolRegistry } from '../../../src/webmcp/index.ts'

interface HostCall { name: string, input: unknown, actor: string }

/** A runtime stand-in: two tools, records every call, answers a JSON string naming the tool. */
function fakeHost(definitions: ToolHostDefinition[] = [
  { name: 'get_state', description: 'Read state.', inputSchema: { type: 'object', properties: {}, additionalProperties: false }, annotations: { readOnlyHint: true } },
  { name: 'translate_objects', description: 'Move.', inputSchema: { type: 'object', properties: { ids: { type: 'array' } }, additionalProperties: false }, annotations: { readOnlyHint: false } },
]): ToolHost & { calls: HostCall[] } {
  const calls: HostCall[] = []
  return {
    calls,
    enabledToolDefinitions: () => definitions,
    callTool: async (name, input, { actor }) => {
      calls.push({ name, input, actor })
      return JSON.stringify({ tool: name, input })
    },
  }
}

/** A §5.3-style stub `modelContext`: keeps tools by name and removes them when their signal aborts. */
function stubContext(): ModelContextLike & { tools: Map<string, WebMcpTool>, log: string[], signals: AbortSignal[] } {
  const tools = new Map<string, WebMcpTool>()
  const log: string[] = []
  const signals: AbortSignal[] = []
  return {
    tools, log, signals,
    async registerTool(tool, { signal }) {
      if (tools.has(tool.name)) throw new DOMException(`Tool already registered: ${tool.name}`, 'InvalidStateError')
      log.push(`register ${tool.name}`)
      tools.set(tool.name, tool)
      signals.push(signal)
      signal.addEventListener('abort', () => {
        log.push(`abort ${tool.name}`)
        if (tools.get(tool.name) === tool) tools.delete(tool.name)
      })
      await Promise.resolve()
      log.push(`registered ${tool.name}`)
    },
  }
}

describe('WebMcpToolRegistry', () => {
  it('registers every enabled tool as {name, description, inputSchema, annotations, execute} under one live signal', async () => {
    const context = stubContext()
    const host = fakeHost()
    const generation = await new WebMcpToolRegistry(context).register(host)
    expect([...context.tools.keys()]).toEqual(['get_state', 'translate_objects'])
    const tool = context.tools.get('translate_objects')
    expect(tool).toMatchObject({ name: 'translate_objects', description: 'Move.', annotations: { readOnlyHint: false } })
    expect(tool?.inputSchema).toEqual(host.enabledToolDefinitions()[1]?.inputSchema)
    expect(context.tools.get('get_state')?.annotations).toEqual({ readOnlyHint: true })
    expect(new Set(context.signals).size).toBe(1)
    expect(context.signals[0]?.aborted).toBe(false)
    expect(generation).toMatchObject({ number: 1, isExpired: false })
    expect(generation.tools).toEqual([context.tools.get('get_state'), context.tools.get('translate_objects')])
  })

  it('forwards execute to the runtime as actor "agent" and returns its JSON string verbatim', async () => {
    const context = stubContext()
    const host = fakeHost()
    await new WebMcpToolRegistry(context).register(host)
    const input = { ids: ['part-0001'] }
    const answer = await context.tools.get('translate_objects')?.execute(input)
    expect(answer).toBe(JSON.stringify({ tool: 'translate_objects', input }))
    expect(host.calls).toEqual([{ name: 'translate_objects', input, actor: 'agent' }])
  })

  it('lists and invokes its own registrations the same way whatever the backing API', async () => {
    const registry = new WebMcpToolRegistry(stubContext())
    const host = fakeHost()
    await registry.register(host)
    expect(registry.listTools().map(t => [t.name, t.annotations.readOnlyHint])).toEqual([['get_state', true], ['translate_objects', false]])
    expect(registry.listTools()[0]).not.toHaveProperty('execute')
    expect(await registry.invokeTool('get_state')).toBe(JSON.stringify({ tool: 'get_state', input: {} }))
    await expect(registry.invokeTool('apply_force', {})).rejects.toMatchObject({ code: 'WEBMCP_TOOL_NOT_REGISTERED' })
  })

  it('re-registering aborts the previous generation, whose execute then answers "expired" and reaches nothing', async () => {
    const context = stubContext()
    const host = fakeHost()
    const registry = new WebMcpToolRegistry(context)
    const first = await registry.register(host)
    const staleTool = context.tools.get('get_state')
    const second = await registry.register(host)
    expect(first.isExpired).toBe(true)
    expect(second).toMatchObject({ number: 2, isExpired: false })
    expect(context.signals[0]?.aborted).toBe(true)
    expect(context.signals.at(-1)?.aborted).toBe(false)
    // Unregistered before the new round registered the same names (no "already registered").
    expect(context.log.indexOf('abort get_state')).toBeLessThan(context.log.lastIndexOf('register get_state'))
    expect(await staleTool?.execute({})).toBe(EXPIRED_REGISTRATION_RESULT)
    expect(JSON.parse(EXPIRED_REGISTRATION_RESULT)).toEqual({ error: 'This tool registration has expired.', code: 'invalid_argument' })
    expect(host.calls).toEqual([])
    expect(await context.tools.get('get_state')?.execute({})).toContain('"tool":"get_state"')
  })

  it('passes the host generation read at registration back on every call', async () => {
    const seen: unknown[] = []
    const host = { ...fakeHost(), generation: 7, callTool: async (_name: string, _input: unknown, options: unknown) => {
      seen.push(options)
      return '{}'
    } }
    const registry = new WebMcpToolRegistry(stubContext())
    await registry.register(host)
    host.generation = 8
    await registry.invokeTool('get_state')
    expect(seen).toEqual([{ actor: 'agent', generation: 7 }])
  })

  it('queues generations so two registrations never overlap', async () => {
    const context = stubContext()
    const registry = new WebMcpToolRegistry(context)
    const host = fakeHost()
    const [a, b] = await Promise.all([registry.register(host), registry.register(host)])
    expect([a.number, b.number]).toEqual([1, 2])
    expect(context.log).toEqual([
      'register get_state', 'registered get_state', 'register translate_objects', 'registered translate_objects',
      'abort get_state', 'abort translate_objects',
      'register get_state', 'registered get_state', 'register translate_objects', 'registered translate_objects',
    ])
  })

  it('reports a rejected registration as WEBMCP_REGISTER_FAILED, aborts the partial generation and keeps working', async () => {
    const context = stubContext()
    const other = fakeHost()
    await context.registerTool({ ...(other.enabledToolDefinitions()[1] as ToolHostDefinition), execute: async () => '{}' }, { signal: new AbortController().signal })
    const registry = new WebMcpToolRegistry(context)
    const failed = registry.register(fakeHost())
    await expect(failed).rejects.toMatchObject({ code: 'WEBMCP_REGISTER_FAILED' })
    await expect(failed).rejects.toThrow(/Tool already registered: translate_objects/)
    expect(registry.listTools()).toEqual([])
    expect(context.tools.has('get_state')).toBe(false)
    const onlyRead = await registry.register(fakeHost([other.enabledToolDefinitions()[0] as ToolHostDefinition]))
    expect(onlyRead.number).toBe(2)
    expect(registry.listTools().map(t => t.name)).toEqual(['get_state'])
  })

  it('never throws from execute: a throwing runtime becomes an {error, code} envelope', async () => {
    const host: ToolHost = {
      enabledToolDefinitions: () => fakeHost().enabledToolDefinitions(),
      callTool: () => {
        throw new Error('runtime exploded')
      },
    }
    const registry = new WebMcpToolRegistry(stubContext())
    await registry.register(host)
    expect(JSON.parse(await registry.invokeTool('get_state'))).toEqual({ error: 'runtime exploded', code: 'invalid_argument' })
  })

  it('hands the browser copies of the input schemas', async () => {
    const definitions = fakeHost().enabledToolDefinitions().map(d => structuredClone(d))
    const context = stubContext()
    await new WebMcpToolRegistry(context).register(fakeHost(definitions))
    ;(context.tools.get('get_state')?.inputSchema as { type: string }).type = 'array'
    expect(definitions[0]?.inputSchema.type).toBe('object')
  })

  it('expires everything on dispose and refuses further rounds', async () => {
    const context = stubContext()
    const registry = new WebMcpToolRegistry(context)
    const generation = await registry.register(fakeHost())
    registry.dispose()
    expect(generation.isExpired).toBe(true)
    expect(context.tools.size).toBe(0)
    await expect(registry.register(fakeHost())).rejects.toMatchObject({ code: 'WEBMCP_DISPOSED' })
  })
})
