// Builds relays over a real WorldRuntime (fixture episode, fake PNG renderer) and connected MCP clients; asserts nothing.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { ConversationEntry, ReferencePage } from '../../../src/agents/index.ts'
import { createMcpSurface, createRuntimeRelay, type McpSurface, type McpSurfaceOptions } from '../../../src/mcp/index.ts'
import { loadMujoco, WorldRuntime, type SceneRenderer } from '../../../src/world/index.ts'
import { buildSetupEpisode, tinyPng } from '../../helpers/episode-fixture.ts'

/** A renderer that returns a tiny PNG (width 7) for every capture. */
export function fakeRenderer(): SceneRenderer {
  return { name: 'fake/png', capture: async () => tinyPng(7), dispose: () => undefined }
}

export function referencePages(count: number): ReferencePage[] {
  return Array.from({ length: count }, (_, i) => ({ page: i + 1, mimeType: 'image/png', bytes: tinyPng(100 + i) }))
}

export interface SurfaceFixture {
  runtime: WorldRuntime
  surface: McpSurface
  records: ConversationEntry[]
  dispose(): void
}

export async function openSurface(options: { pages?: number, surface?: McpSurfaceOptions['surface'], toolTimeoutMs?: number } = {}): Promise<SurfaceFixture> {
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode: buildSetupEpisode(), renderer: fakeRenderer() })
  const records: ConversationEntry[] = []
  const relay = createRuntimeRelay({ runtime, referencePages: referencePages(options.pages ?? 0) })
  const surface = createMcpSurface({ relay, surface: options.surface, toolTimeoutMs: options.toolTimeoutMs, onRecord: entry => { records.push(entry) } })
  return { runtime, surface, records, dispose: () => runtime.dispose() }
}

/** A real SDK client connected to a new server of `surface` over an in-memory pair. */
export async function connectInMemory(surface: McpSurface): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await surface.createServer().connect(serverSide)
  const client = new Client({ name: 'test', version: '0' })
  await client.connect(clientSide)
  return client
}

/** The text of the first content item of a tool result. */
export function firstText(result: unknown): string {
  const content = (result as CallToolResult).content
  const first = content[0]
  if (first?.type !== 'text') throw new Error(`expected a text item first, got ${JSON.stringify(first)}`)
  return first.text
}

/** Calls execute_webmcp_tool on page 1 and parses its `{status, output, errorText}` text. */
export async function execute(client: Client, toolName: string, input: Record<string, unknown> = {}): Promise<{ result: CallToolResult, answer: { status: string, output: string | null, errorText: string | null } }> {
  const result = await client.callTool({ name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName, input: JSON.stringify(input) } }) as CallToolResult
  return { result, answer: JSON.parse(firstText(result)) as { status: string, output: string | null, errorText: string | null } }
}
