import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { decodeEpisode, encodeEpisode } from '../../../src/episode/index.ts'
import { runEpisodeInBrowser } from '../../../src/headless/index.ts'
import { buildSetupEpisode } from '../../helpers/episode-fixture.ts'

describe('runEpisodeInBrowser (Vite page + headless Chromium)', () => {
  it('runs calls through the registered tools with the three.js renderer and returns the exported episode', async () => {
    const initial = await encodeEpisode(buildSetupEpisode({ parts: 2 }))
    const run = await runEpisodeInBrowser({
      episode: initial,
      source: 'fixture.episode.zip',
      calls: [
        { name: 'translate_objects', arguments: { ids: ['part-0002'], delta: [0, 0.1, 0] } },
        { name: 'capture_scene' },
        { name: 'apply_force', arguments: { id: 'part-0001', force: [1, 0, 0] } },
        { name: 'get_state', arguments: {} },
      ],
    })
    expect(run.renderer).toBe('three-r187/webgl2')
    expect(run.gpu).not.toBe('no WebGL2')
    expect(['document', 'polyfill']).toContain(run.webmcp)
    expect(run.outputs.map(o => [o.name, o.via])).toEqual([
      ['translate_objects', 'webmcp'], ['capture_scene', 'webmcp'], ['apply_force', 'runtime'], ['get_state', 'webmcp'],
    ])
    expect(run.outputs[0]?.output).toBe('{"status":"completed","physics":"disabled","index":1}')
    expect(JSON.parse(run.outputs[2]?.output ?? '{}')).toEqual({ error: 'Tool is disabled: apply_force', code: 'disabled' })
    const wire = JSON.parse(run.outputs[1]?.output ?? '{}')
    const png = PNG.sync.read(Buffer.from(wire.content[0].data, 'base64'))
    expect([png.width, png.height]).toEqual([1024, 768])

    const exported = await decodeEpisode(run.episode, { source: 'export' })
    expect(exported.manifest.lifecycle).toBe('active')
    expect(exported.calls.map(c => [c.name, c.status])).toEqual([
      ['translate_objects', 'completed'], ['capture_scene', 'completed'], ['apply_force', 'error'], ['get_state', 'completed'],
    ])
    expect(exported.calls[1]?.producer.renderer).toBe('three-r187/webgl2')
    expect(exported.observations.size).toBe(1)
    expect(exported.states).toHaveLength(1)
  })

  it('reports an unreadable episode as RENDER_HEADLESS_PAGE with the decoder message', async () => {
    const failure = runEpisodeInBrowser({ episode: new TextEncoder().encode('not a zip'), source: 'broken.episode.zip', calls: [] })
    await expect(failure).rejects.toMatchObject({ code: 'RENDER_HEADLESS_PAGE' })
    await expect(failure).rejects.toThrow(/broken\.episode\.zip/)
  })

  it('reports a Chromium that does not start as RENDER_HEADLESS_LAUNCH', async () => {
    const failure = runEpisodeInBrowser({ episode: new Uint8Array(0), calls: [], executablePath: '/nonexistent/chromium' })
    await expect(failure).rejects.toMatchObject({ code: 'RENDER_HEADLESS_LAUNCH' })
    await expect(failure).rejects.toThrow(/AWB_CHROMIUM/)
  })
})
