// The benchmark surface through a real MCP Client over InMemory, backed by a real WorldRuntime.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { BENCHMARK_TOOL_NAMES, createMcpSurface, DEFAULT_RELAY_PAGE, IMAGE_PLACEHOLDER } from '../../../src/mcp/index.ts'
import { bytesToBase64 } from '../../../src/headless/index.ts'
import { tinyPng } from '../../helpers/episode-fixture.ts'
import { connectInMemory, execute, firstText, openSurface, type SurfaceFixture } from './mcp-fixture.ts'

let fixture: SurfaceFixture | undefined
afterEach(() => {
  fixture?.dispose()
  fixture = undefined
})

describe('benchmark surface', () => {
  it('lists exactly the four tools with chrome-devtools-mcp input shapes', async () => {
    fixture = await openSurface()
    const client = await connectInMemory(fixture.surface)
    const { tools } = await client.listTools()
    expect(tools.map(tool => tool.name)).toEqual([...BENCHMARK_TOOL_NAMES])
    const execute = tools.find(tool => tool.name === 'execute_webmcp_tool')!
    expect(execute.inputSchema.required).toEqual(['pageId', 'toolName'])
    expect(Object.keys(execute.inputSchema.properties ?? {})).toEqual(['pageId', 'toolName', 'input'])
    const read = tools.find(tool => tool.name === 'read_manual_page')!
    expect(read.inputSchema.properties?.page).toMatchObject({ type: 'integer', minimum: 1 })
  })

  it('any other tool is not allowed (and still recorded); unknown argument keys are tolerated', async () => {
    fixture = await openSurface()
    const client = await connectInMemory(fixture.surface)
    for (const name of ['navigate_page', 'evaluate_script', 'translate_objects']) {
      const result = await client.callTool({ name, arguments: {} }) as CallToolResult
      expect(result.isError).toBe(true)
      expect(firstText(result)).toMatch(new RegExp(`^Tool is not allowed: ${name}\\.`))
    }
    expect(fixture.records.filter(record => record.type === 'tool_call')).toHaveLength(3)
    expect(fixture.runtime.exportEpisode().calls).toEqual([])
    const extra = await client.callTool({ name: 'list_webmcp_tools', arguments: { pageId: 1, verbose: true } }) as CallToolResult
    expect(extra.isError).toBeUndefined()
  })

  it('list_pages answers chrome-devtools-mcp\'s text only: the `## Pages` section, no structuredContent', async () => {
    fixture = await openSurface()
    const client = await connectInMemory(fixture.surface)
    const result = await client.callTool({ name: 'list_pages', arguments: {} }) as CallToolResult
    expect(result).toEqual({ content: [{ type: 'text', text: `## Pages\n1: ${DEFAULT_RELAY_PAGE.title} (${DEFAULT_RELAY_PAGE.url}) [selected]` }] })
  })

  it('list_webmcp_tools lists the runtime tools with schemas and annotations; another page id is refused', async () => {
    fixture = await openSurface()
    const client = await connectInMemory(fixture.surface)
    const result = await client.callTool({ name: 'list_webmcp_tools', arguments: { pageId: 1 } }) as CallToolResult
    expect(result.structuredContent).toBeUndefined()
    expect(result.content).toHaveLength(1)
    const [heading, ...lines] = firstText(result).split('\n')
    expect(heading).toBe('## WebMCP tools')
    const definitions = fixture.runtime.enabledToolDefinitions()
    expect(lines).toEqual(definitions.map(tool => `name="${tool.name}", description="${tool.description}", inputSchema=${JSON.stringify(tool.inputSchema)}, annotations=${String(JSON.stringify(tool.annotations))}`))
    expect(lines.find(line => line.startsWith('name="get_scene"'))).toMatch(/annotations=\{"readOnlyHint":true\}$/)
    const wrong = await client.callTool({ name: 'list_webmcp_tools', arguments: { pageId: 2 } }) as CallToolResult
    expect(wrong).toEqual({ content: [{ type: 'text', text: 'Error: No page found' }], isError: true })
  })

  it('execute_webmcp_tool runs the page tool and answers {status, output, errorText}', async () => {
    fixture = await openSurface()
    const client = await connectInMemory(fixture.surface)
    const { answer } = await execute(client, 'translate_objects', { ids: ['part-0001'], delta: [0.25, 0, 0] })
    expect(answer.status).toBe('Completed')
    expect(answer.errorText).toBeNull()
    expect(JSON.parse(answer.output!)).toMatchObject({ status: 'completed' })
    expect(fixture.runtime.exportEpisode().calls.map(call => call.name)).toEqual(['translate_objects'])
  })

  it('tool failures stay results: invalid input is the runtime envelope, bad JSON and unknown tools are isError', async () => {
    fixture = await openSurface()
    const client = await connectInMemory(fixture.surface)
    const invalid = await execute(client, 'translate_objects', { ids: [] })
    expect(invalid.answer.status).toBe('Completed')
    expect(JSON.parse(invalid.answer.output!)).toMatchObject({ code: 'invalid_argument' })
    const badJson = await client.callTool({ name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'get_scene', input: '[1]' } }) as CallToolResult
    expect(badJson.isError).toBe(true)
    expect(firstText(badJson)).toBe('Error: Failed to parse input as JSON: Parsed input is not an object')
    const unknown = await client.callTool({ name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'apply_force', input: '{}' } }) as CallToolResult
    expect(unknown.isError).toBe(true)
    expect(firstText(unknown)).toBe('Error: Tool apply_force not found')
    const wrongPage = await client.callTool({ name: 'execute_webmcp_tool', arguments: { pageId: 3, toolName: 'get_scene' } }) as CallToolResult
    expect(wrongPage.isError).toBe(true)
    // Only the runtime-validated call reached the episode.
    expect(fixture.runtime.exportEpisode().calls.map(call => call.status)).toEqual(['error'])
  })

  it('a page failure (the relay rejects) is status Error with errorText, not a protocol error', async () => {
    fixture = await openSurface()
    const relay = {
      page: DEFAULT_RELAY_PAGE,
      referencePages: [],
      listTools: async () => fixture!.runtime.enabledToolDefinitions(),
      callTool: async () => { throw new Error('Target page, context or browser has been closed') },
    }
    const client = await connectInMemory(createMcpSurface({ relay }))
    const { result, answer } = await execute(client, 'get_scene')
    expect(result.isError).toBeUndefined()
    expect(answer).toEqual({ status: 'Error', output: null, errorText: 'Target page, context or browser has been closed' })
  })

  it('a call past the per-call limit is cancelled and answered as an error; the lane moves on', async () => {
    fixture = await openSurface()
    let calls = 0
    const relay = {
      page: DEFAULT_RELAY_PAGE,
      referencePages: [],
      listTools: async () => fixture!.runtime.enabledToolDefinitions(),
      callTool: (_name: string, _input: unknown, { signal }: { signal: AbortSignal }) => {
        calls++
        return calls === 1 ? new Promise<string>(() => undefined) : Promise.resolve(JSON.stringify({ ok: signal.aborted }))
      },
    }
    const client = await connectInMemory(createMcpSurface({ relay, toolTimeoutMs: 50 }))
    const hung = await client.callTool({ name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'get_scene' } }) as CallToolResult
    expect(hung.isError).toBe(true)
    expect(firstText(hung)).toContain('did not answer within 0.05 s')
    expect((await execute(client, 'get_scene')).answer.output).toBe('{"ok":false}')
  })

  it('capture_scene images become MCP image content and a placeholder in the text', async () => {
    fixture = await openSurface()
    const client = await connectInMemory(fixture.surface)
    const { result, answer } = await execute(client, 'capture_scene')
    expect(result.content).toHaveLength(2)
    expect(result.content[1]).toEqual({ type: 'image', data: bytesToBase64(tinyPng(7)), mimeType: 'image/png' })
    const output = JSON.parse(answer.output!) as { content: unknown[] }
    expect(output.content).toEqual([IMAGE_PLACEHOLDER])
    expect(firstText(result)).not.toContain(bytesToBase64(tinyPng(7)))
  })

  it('read_manual_page returns the one-based page; out of range and page 0 are errors', async () => {
    fixture = await openSurface({ pages: 3 })
    const client = await connectInMemory(fixture.surface)
    const second = await client.callTool({ name: 'read_manual_page', arguments: { page: 2 } }) as CallToolResult
    expect(second.content[1]).toEqual({ type: 'image', data: bytesToBase64(tinyPng(101)), mimeType: 'image/png' })
    const beyond = await client.callTool({ name: 'read_manual_page', arguments: { page: 4 } }) as CallToolResult
    expect(beyond.isError).toBe(true)
    expect(firstText(beyond)).toContain('out of range')
    const zero = await client.callTool({ name: 'read_manual_page', arguments: { page: 0 } }) as CallToolResult
    expect(zero.isError).toBe(true)
    expect(firstText(zero)).toContain('Input validation error')
  })

  it('read_manual_page in a task without pages is an error', async () => {
    fixture = await openSurface({ pages: 0 })
    const client = await connectInMemory(fixture.surface)
    const result = await client.callTool({ name: 'read_manual_page', arguments: { page: 1 } }) as CallToolResult
    expect(result.isError).toBe(true)
    expect(firstText(result)).toContain('no reference pages')
  })

  it('reports every call and its full result to the conversation sink, with matching ids', async () => {
    fixture = await openSurface()
    const client = await connectInMemory(fixture.surface)
    await execute(client, 'get_scene')
    await client.callTool({ name: 'list_pages', arguments: {} })
    expect(fixture.records.map(record => record.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'tool_result'])
    expect(fixture.records[0]).toEqual({ type: 'tool_call', id: 'call-1', name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'get_scene', input: '{}' } })
    expect(fixture.records[1]).toMatchObject({ type: 'tool_result', id: 'call-1', result: { content: [{ type: 'text' }] } })
    expect(fixture.records[2]).toMatchObject({ type: 'tool_call', id: 'call-2', name: 'list_pages' })
    expect(fixture.surface.calls).toBe(2)
  })

  it('serialises calls from two clients: no call starts before the previous one has its result', async () => {
    fixture = await openSurface()
    const [a, b] = [await connectInMemory(fixture.surface), await connectInMemory(fixture.surface)]
    await Promise.all([
      execute(a, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] }),
      execute(b, 'translate_objects', { ids: ['part-0002'], delta: [0.1, 0, 0] }),
      execute(a, 'capture_scene'),
      execute(b, 'get_state'),
    ])
    const types = fixture.records.map(record => record.type)
    expect(types).toEqual(['tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result'])
    // Had two calls overlapped, the runtime would have answered one of them "busy".
    const statuses = fixture.runtime.exportEpisode().calls.map(call => call.status)
    expect(statuses).toEqual(['completed', 'completed', 'completed', 'completed'])
  })
})
