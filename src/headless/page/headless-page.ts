// The headless driver's page: opens an episode with the three.js renderer, registers its tools, runs calls, exports.
// Page code: no `node:` imports. The Node side (browser-session.ts) serves this file through Vite.
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import { decodeEpisode, encodeEpisode } from '../../episode/index.ts'
import { WebMcpToolRegistry } from '../../webmcp/index.ts'
import { loadMujoco, WorldRuntime } from '../../world/index.ts'
import { createThreeSceneRenderer } from '../../render/index.ts'
import {
  base64ToBytes,
  bytesToBase64,
  HEADLESS_PAGE_GLOBAL,
  type HeadlessCallOutput,
  type HeadlessRunResponse,
  HeadlessRunRequestSchema,
} from '../headless-page-messages.ts'

/**
 * Runs one request: agent calls whose tool is registered go through the registered WebMCP `execute`
 * (the path an agent takes); human commands and agent calls to unregistered (disabled, unknown, retired)
 * tools go to `callTool`, so the runtime answers and records them as it would any caller.
 */
async function run(request: unknown): Promise<HeadlessRunResponse> {
  const { episode: episodeBase64, source, calls } = HeadlessRunRequestSchema.parse(request)
  const mujoco = await loadMujoco({ locateFile: path => (path.endsWith('.wasm') ? wasmUrl : path) })
  const episode = await decodeEpisode(base64ToBytes(episodeBase64), { source })
  const renderer = createThreeSceneRenderer()
  const runtime = WorldRuntime.open({ mujoco, episode, renderer, source })
  const registry = WebMcpToolRegistry.open()
  try {
    await registry.register(runtime)
    const registered = new Set(registry.listTools().map(tool => tool.name))
    const outputs: HeadlessCallOutput[] = []
    for (const call of calls) {
      const input = call.arguments ?? {}
      const isAgent = (call.actor ?? 'agent') === 'agent'
      const via = isAgent && registered.has(call.name) ? 'webmcp' : 'runtime'
      const started = performance.now()
      const output = via === 'webmcp'
        ? await registry.invokeTool(call.name, input)
        : await runtime.callTool(call.name, input, { actor: call.actor ?? 'agent' })
      outputs.push({ name: call.name, output, via, ms: performance.now() - started })
    }
    const exported = await encodeEpisode(runtime.exportEpisode(), { source })
    return { outputs, episode: bytesToBase64(exported), renderer: renderer.name, webmcp: registry.source }
  } finally {
    registry.dispose()
    runtime.dispose()
    renderer.dispose()
  }
}

Reflect.set(window, HEADLESS_PAGE_GLOBAL, { run })
