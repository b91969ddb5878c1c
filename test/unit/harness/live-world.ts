// Drives a live world as a sample's page does and records its calls as Node writes them (conversation.jsonl lines), for
// the rebuild tests; asserts nothing.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { ConversationEntry } from '../../../src/agents/index.ts'
import { decodeEpisode, encodeEpisode, type Episode } from '../../../src/episode/index.ts'
import { createMcpSurface, createRuntimeRelay, type RelayPage } from '../../../src/mcp/index.ts'
import { loadMujoco, WorldRuntime, type SceneRenderer } from '../../../src/world/index.ts'
import { tinyPng } from '../../helpers/episode-fixture.ts'

/** One call an agent makes: a world tool (page, API) or an MCP tool of the benchmark surface (CLI). */
export interface AgentCall {
  name: string
  arguments?: unknown
}

export interface LiveRun {
  runtime: WorldRuntime
  /** The records as the page (or the MCP gate) hands them to Node, in order. */
  entries: ConversationEntry[]
}

/** A renderer that returns a different tiny PNG for each capture, as a page's would. */
export function pngRenderer(): SceneRenderer {
  let seed = 10
  return { name: 'three-test/webgl2', capture: async () => tinyPng(seed++), dispose: () => {} }
}

/** The world a page opens: `episode` as the package stores it, decoded from its archive. */
export async function openLive(episode: Episode): Promise<WorldRuntime> {
  const decoded = await decodeEpisode(await encodeEpisode(episode))
  return WorldRuntime.open({ mujoco: await loadMujoco(), episode: decoded, renderer: pngRenderer() })
}

/**
 * A module agent's calls as the page's harness records them (`realm-host.ts`): `tool_call`, the registry's call,
 * `tool_result`; a name the registry never registered is refused before the world and leaves no result.
 */
export async function runPageAgent(episode: Episode, calls: readonly AgentCall[]): Promise<LiveRun> {
  const runtime = await openLive(episode)
  const registered = new Set<string>(runtime.enabledToolDefinitions().map(tool => tool.name))
  const entries: ConversationEntry[] = [{ type: 'message', role: 'user', content: 'Assemble.' }]
  for (const [index, call] of calls.entries()) {
    const id = `call-${index + 1}`
    entries.push({ type: 'tool_call', id, name: call.name, arguments: call.arguments })
    if (!registered.has(call.name)) continue
    entries.push({ type: 'tool_result', id, result: await runtime.callTool(call.name, call.arguments ?? {}, { actor: 'agent' }) })
  }
  return { runtime, entries }
}

/**
 * An API agent's calls as its loop records them (`api-agent.ts`): arguments that are not JSON (kept as raw text) and
 * names it was not offered are answered by the loop itself.
 */
export async function runApiAgent(episode: Episode, calls: readonly AgentCall[]): Promise<LiveRun> {
  const runtime = await openLive(episode)
  const known = runtime.enabledToolDefinitions().map(tool => tool.name)
  const entries: ConversationEntry[] = []
  for (const [index, call] of calls.entries()) {
    const id = `toolu_${index}`
    entries.push({ type: 'tool_call', id, name: call.name, arguments: call.arguments })
    let result: string
    if (typeof call.arguments === 'string' && !isJson(call.arguments)) result = JSON.stringify({ error: `Invalid ${call.name} arguments: not a JSON object (Unexpected end of JSON input).`, code: 'invalid_argument' })
    else if (!known.includes(call.name as never)) result = JSON.stringify({ error: `Unknown tool: ${call.name}. Available tools: ${known.join(', ')}.`, code: 'invalid_argument' })
    else result = await runtime.callTool(call.name, call.arguments, { actor: 'agent' })
    entries.push({ type: 'tool_result', id, result })
    entries.push({ type: 'message', role: 'assistant', content: `called ${call.name}` })
  }
  return { runtime, entries }
}

/** A CLI agent's MCP calls through the benchmark surface over the live world, recorded by its gate. */
export async function runCliAgent(episode: Episode, page: RelayPage, calls: readonly AgentCall[]): Promise<LiveRun> {
  const runtime = await openLive(episode)
  const entries: ConversationEntry[] = []
  const surface = createMcpSurface({ relay: createRuntimeRelay({ runtime, page }), surface: 'benchmark', onRecord: (entry) => { entries.push(entry) } })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await surface.createServer().connect(serverSide)
  const client = new Client({ name: 'test-cli', version: '0' })
  await client.connect(clientSide)
  for (const call of calls) await client.callTool({ name: call.name, arguments: call.arguments as Record<string, unknown> })
  await client.close()
  return { runtime, entries }
}

/** conversation.jsonl as Node's RunWriter writes `entries`: one `{timestamp, …entry}` line each, a second apart. */
export function conversationOf(entries: readonly ConversationEntry[], start = Date.parse('2026-01-01T00:00:00.000Z')): string {
  return entries.map((entry, i) => `${JSON.stringify({ timestamp: new Date(start + i * 1000).toISOString(), ...entry })}\n`).join('')
}

/** An episode's history without what differs by design between a live run and its rebuild: times and the capture's renderer. */
export function historyOf(episode: Episode) {
  return {
    manifest: { ...episode.manifest, hashes: {} },
    initial: episode.initial,
    states: episode.states,
    calls: episode.calls.map(({ timestamp: _time, producer: { renderer: _renderer, ...producer }, ...call }) => ({ ...call, producer })),
    events: episode.events.map(({ timestamp: _time, ...event }) => event),
    trajectory: episode.trajectory,
    observations: episode.observations,
  }
}

/** The bytes of every committed state's integration vector (bit-exact comparison of two worlds). */
export function stateBytes(episode: Episode): string[] {
  return [episode.initial, ...episode.states].map(frame => Buffer.from(new Float64Array(frame.integration).buffer).toString('hex'))
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
