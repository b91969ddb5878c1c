// The surfaces over real transports: Streamable HTTP on 127.0.0.1 (path token, 404 elsewhere) and stdio through
// the bridge process agent CLIs spawn (`awb mcp --connect URL`), both with a real SDK Client.
import { request } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { bridgeCommand, startMcpHttpServer, type McpHttpServer } from '../../../src/mcp/index.ts'
import { execute, firstText, openSurface, type SurfaceFixture } from './mcp-fixture.ts'

let fixture: SurfaceFixture | undefined
let server: McpHttpServer | undefined
const clients: Client[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await server?.close()
  fixture?.dispose()
  server = undefined
  fixture = undefined
})

async function connect(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<Client> {
  const client = new Client({ name: 'test', version: '0' })
  await client.connect(transport)
  clients.push(client)
  return client
}

describe('Streamable HTTP endpoint', () => {
  it('serves the surface on a loopback URL with an unguessable path; other paths are 404', async () => {
    fixture = await openSurface()
    server = await startMcpHttpServer({ surface: fixture.surface })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/mcp$/)
    const client = await connect(new StreamableHTTPClientTransport(new URL(server.url)))
    const { answer } = await execute(client, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    expect(answer.status).toBe('Completed')
    expect(fixture.runtime.exportEpisode().calls).toHaveLength(1)
    const guess = await fetch(`http://127.0.0.1:${server.port}/mcp`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    expect(guess.status).toBe(404)
    // DNS rebinding: the right path under another host name is refused.
    const rebound = await new Promise<number>((resolve, reject) => {
      request(server!.url, { method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json' } }, res => resolve(res.statusCode ?? 0)).on('error', reject).end('{}')
    })
    expect(rebound).toBe(403)
  })

  it('two HTTP clients share one lane and one conversation', async () => {
    fixture = await openSurface({ surface: 'direct' })
    server = await startMcpHttpServer({ surface: fixture.surface })
    const [a, b] = [await connect(new StreamableHTTPClientTransport(new URL(server.url))), await connect(new StreamableHTTPClientTransport(new URL(server.url)))]
    await Promise.all([
      a.callTool({ name: 'translate_objects', arguments: { ids: ['part-0001'], delta: [0.1, 0, 0] } }),
      b.callTool({ name: 'translate_objects', arguments: { ids: ['part-0002'], delta: [0.1, 0, 0] } }),
    ])
    expect(fixture.records.map(record => record.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'tool_result'])
    expect(fixture.runtime.exportEpisode().calls.map(call => call.status)).toEqual(['completed', 'completed'])
  })
})

describe('stdio bridge (awb mcp --connect)', () => {
  it('forwards a stdio client to the HTTP endpoint: listing, executing, images', async () => {
    fixture = await openSurface({ pages: 1 })
    server = await startMcpHttpServer({ surface: fixture.surface })
    const { command, args } = bridgeCommand(server.url)
    const client = await connect(new StdioClientTransport({ command, args, stderr: 'pipe' }))
    const { tools } = await client.listTools()
    expect(tools.map(tool => tool.name)).toEqual(['list_pages', 'list_webmcp_tools', 'execute_webmcp_tool', 'read_manual_page'])
    const { result } = await execute(client, 'capture_scene')
    expect(result.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' })
    const page = await client.callTool({ name: 'read_manual_page', arguments: { page: 1 } }) as CallToolResult
    expect(firstText(page)).toBe('Reference page 1 of 1.')
    expect(fixture.records.filter(record => record.type === 'tool_call')).toHaveLength(2)
  })
})

describe('stdio bridge without an endpoint', () => {
  it('answers the client with a JSON-RPC error instead of leaving it waiting', async () => {
    fixture = await openSurface()
    server = await startMcpHttpServer({ surface: fixture.surface })
    const { url } = server
    await server.close()
    const { command, args } = bridgeCommand(url)
    const client = new Client({ name: 'test', version: '0' })
    await expect(client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }))).rejects.toThrow(/the environment endpoint did not answer/)
    await client.close()
  })
})

describe('direct surface', () => {
  it('lists the runtime tools with their own JSON Schemas and marks runtime errors isError', async () => {
    fixture = await openSurface({ surface: 'direct' })
    server = await startMcpHttpServer({ surface: fixture.surface })
    const client = await connect(new StreamableHTTPClientTransport(new URL(server.url)))
    const { tools } = await client.listTools()
    const definitions = fixture.runtime.enabledToolDefinitions()
    expect(tools.map(tool => tool.name)).toEqual(definitions.map(tool => tool.name))
    expect(tools.find(tool => tool.name === 'set_object_pose')?.inputSchema).toMatchObject({ anyOf: [{ required: ['position'] }, { required: ['quaternion'] }] })
    const moved = await client.callTool({ name: 'set_object_pose', arguments: { id: 'part-0002', position: [0, 0, 1] } }) as CallToolResult
    expect(moved.isError).toBe(false)
    const missing = await client.callTool({ name: 'get_object', arguments: { id: 'missing' } }) as CallToolResult
    expect(missing.isError).toBe(true)
    expect(JSON.parse(firstText(missing))).toHaveProperty('error')
    const capture = await client.callTool({ name: 'capture_scene', arguments: {} }) as CallToolResult
    expect(capture.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' })
    const unknown = await client.callTool({ name: 'apply_force', arguments: {} }) as CallToolResult
    expect(unknown.isError).toBe(true)
    expect(firstText(unknown)).toContain('Tool apply_force not found')
  })
})
