// The persistent episode page: opens one episode with the three.js renderer, registers its tools, then answers
// single tool calls (through WebMCP `execute`, as an agent's) and exports on request. Page code: no `node:` imports.
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import { decodeEpisode, encodeEpisode } from '../../episode/index.ts'
import { WebMcpToolRegistry } from '../../webmcp/index.ts'
import { loadMujoco, WorldRuntime } from '../../world/index.ts'
import { createThreeSceneRenderer } from '../../render/index.ts'
import {
  EPISODE_SESSION_GLOBAL,
  EpisodeSessionCallSchema,
  EpisodeSessionOpenSchema,
  type EpisodeSessionOpened,
} from '../episode-session-messages.ts'
import { base64ToBytes, bytesToBase64 } from '../headless-page-messages.ts'

interface OpenEpisode {
  runtime: WorldRuntime
  registry: WebMcpToolRegistry
  source: string
}

let current: OpenEpisode | undefined

async function open(request: unknown): Promise<EpisodeSessionOpened> {
  if (current !== undefined) throw new Error('this page already holds an episode; open a new session for another one')
  const { episode: base64, source } = EpisodeSessionOpenSchema.parse(request)
  const mujoco = await loadMujoco({ locateFile: path => (path.endsWith('.wasm') ? wasmUrl : path) })
  const episode = await decodeEpisode(base64ToBytes(base64), { source })
  const renderer = createThreeSceneRenderer()
  const runtime = WorldRuntime.open({ mujoco, episode, renderer, source })
  const registry = WebMcpToolRegistry.open()
  await registry.register(runtime)
  current = { runtime, registry, source }
  return { tools: listTools(), renderer: renderer.name, webmcp: registry.source }
}

function listTools(): EpisodeSessionOpened['tools'] {
  return (current?.registry.listTools() ?? []).map(tool => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { readOnlyHint: tool.annotations.readOnlyHint },
  }))
}

/** Runs one agent call through the registered tool's `execute`; the answer is the tool's JSON string. */
function call(request: unknown): Promise<string> {
  if (current === undefined) throw new Error('no episode is open in this page')
  const { name, input } = EpisodeSessionCallSchema.parse(request)
  return current.registry.invokeTool(name, input)
}

async function exportEpisode(): Promise<string> {
  if (current === undefined) throw new Error('no episode is open in this page')
  return bytesToBase64(await encodeEpisode(current.runtime.exportEpisode(), { source: current.source }))
}

Reflect.set(window, EPISODE_SESSION_GLOBAL, { open, listTools, call, exportEpisode })
