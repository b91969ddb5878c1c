import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeEpisode, encodeEpisode, sha256Hex } from '../../src/episode/index.ts'
import { createThreeSceneRenderer } from '../../src/render/index.ts'
import { EXPIRED_REGISTRATION_RESULT, listContextTools, WebMcpToolRegistry } from '../../src/webmcp/index.ts'
import { TOOL_DESCRIPTIONS, TOOL_READ_ONLY, WorldRuntime } from '../../src/world/index.ts'
import { BENCHMARK_TOOLS, buildSetupEpisode } from '../helpers/episode-fixture.ts'
import { decodePng, pngSize } from './support/png-pixels.ts'
import { loadPageMujoco } from './support/fixture-world.ts'

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), c => c.charCodeAt(0))
}

describe('WorldRuntime with the three.js renderer, registered on the page API', () => {
  let runtime: WorldRuntime
  const registry = WebMcpToolRegistry.open()

  beforeAll(async () => {
    const mujoco = await loadPageMujoco()
    runtime = WorldRuntime.open({ mujoco, episode: buildSetupEpisode({ parts: 3 }), renderer: createThreeSceneRenderer(), source: 'fixture' })
    await registry.register(runtime)
  })
  afterAll(() => {
    registry.dispose()
    runtime.dispose()
  })

  it('registers the 12 benchmark tools with the §4.2 descriptions, schemas and read-only hints', async () => {
    const listed = await listContextTools(registry.context)
    expect(listed?.map(t => t.name).sort()).toEqual([...BENCHMARK_TOOLS].sort())
    for (const tool of registry.listTools()) {
      const name = tool.name as keyof typeof TOOL_DESCRIPTIONS
      expect(tool.description).toBe(TOOL_DESCRIPTIONS[name])
      expect(tool.annotations.readOnlyHint).toBe(TOOL_READ_ONLY[name])
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false })
    }
    expect(listed?.find(t => t.name === 'capture_scene')?.annotations?.readOnlyHint).toBe(true)
  })

  it('captures through the runtime: the wire result carries the PNG, the export stores it as an observation', async () => {
    expect(await registry.invokeTool('translate_objects', { ids: ['part-0002'], delta: [0, 0, 0.2] })).toBe('{"status":"completed","physics":"disabled","index":1}')
    const wire = JSON.parse(await registry.invokeTool('capture_scene', {}))
    expect(wire.render).toEqual({ width: 1024, height: 768, pixelRatio: 1, fovy: 38, near: 0.01, far: 1000 })
    expect(wire.camera).toEqual(runtime.camera)
    expect(wire.content).toHaveLength(1)
    expect(wire.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' })
    const png = fromBase64(wire.content[0].data)
    expect(pngSize(png)).toEqual({ width: 1024, height: 768 })
    expect((await decodePng(png)).width).toBe(1024)

    const episode = runtime.exportEpisode()
    const observation = `${await sha256Hex(png)}.png`
    expect([...episode.observations.keys()]).toEqual([observation])
    expect(Array.from(episode.observations.get(observation) ?? [])).toEqual(Array.from(png))
    const call = episode.calls.find(c => c.name === 'capture_scene')
    expect(call?.producer.renderer).toBe('three-r187/webgl2')
    expect(call?.result).toMatchObject({ content: [{ type: 'image', mimeType: 'image/png', observation }] })
    expect(call?.transport).toContain(wire.content[0].data)
    expect(call?.state_index).toBe(1)
    // The archive validates and round-trips with the observation inside.
    const reopened = await decodeEpisode(await encodeEpisode(episode))
    expect([...reopened.observations.keys()]).toEqual([observation])
  })

  it('answers a stale generation with "expired" and records nothing', async () => {
    const before = runtime.exportEpisode().calls.length
    const stale = await registry.register(runtime)
    await registry.register(runtime)
    const staleCapture = stale.tools.find(t => t.name === 'capture_scene')
    expect(await staleCapture?.execute({})).toBe(EXPIRED_REGISTRATION_RESULT)
    expect(runtime.exportEpisode().calls.length).toBe(before)
    expect(await registry.invokeTool('get_state', {})).toContain('"index":1')
    expect(runtime.exportEpisode().calls.length).toBe(before + 1)
  })
})
