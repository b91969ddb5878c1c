import { describe, expect, it } from 'vitest'
import { decodeEpisode, encodeEpisode, latestFrame, readBenchmarkPoses, type Episode } from '../../../src/episode/index.ts'
import { readFinalScene } from '../../../src/evaluate/index.ts'
import { compileWorld, loadMujoco, WorldRuntime } from '../../../src/world/index.ts'
import { buildSetupEpisode } from '../../helpers/episode-fixture.ts'

/** The fixture's XML world compiled natively and saved as `world/model.mjb`, as the MJB producer ships it. */
async function mjbEpisode(): Promise<Episode> {
  const mujoco = await loadMujoco()
  const episode = buildSetupEpisode({ parts: 3, sourcePartIds: ['a', 'b', 'c'] })
  const model = compileWorld(mujoco, episode.world)
  try {
    mujoco.FS.mkdirTree('/awb-test', 0o755)
    mujoco.mj_saveModel(model, '/awb-test/model.mjb', null)
    const bytes = new Uint8Array(mujoco.FS.readFile('/awb-test/model.mjb'))
    mujoco.FS.unlink('/awb-test/model.mjb')
    episode.world = new Map([['world/model.mjb', bytes]])
  } finally {
    model.delete()
  }
  episode.manifest.model = { format: 'mjb', path: 'model.mjb' }
  episode.manifest.producer = { ...episode.manifest.producer, implementation: 'assembly-world-agent-episode-v1-mjb' }
  return episode
}

describe('MJB worlds', () => {
  it('open, take pose tools, export with the MJB bytes untouched, and score through readFinalScene', async () => {
    const mujoco = await loadMujoco()
    const initial = await mjbEpisode()
    const initialBytes = await encodeEpisode(initial)
    const runtime = WorldRuntime.open({ mujoco, episode: await decodeEpisode(initialBytes), source: 'mjb.episode.zip' })
    try {
      expect(JSON.parse(await runtime.callTool('translate_objects', { ids: ['part-0002'], delta: [0.25, 0, 0] }))).toEqual({ status: 'completed', physics: 'disabled', index: 1 })
      expect(JSON.parse(await runtime.callTool('get_scene', {})).objects).toHaveLength(3)
      const finalBytes = await encodeEpisode(runtime.exportEpisode())
      const final = await decodeEpisode(finalBytes)
      expect(final.manifest.model).toEqual({ format: 'mjb', path: 'model.mjb' })
      expect(final.world.get('world/model.mjb')).toEqual(initial.world.get('world/model.mjb'))
      expect(readBenchmarkPoses(latestFrame(final).integration, 3).positions[3]).toBe(0.25)
      const scene = await readFinalScene({ finalBytes, initialBytes, partIds: ['a', 'b', 'c'], finalSource: 'final', initialSource: 'initial' })
      expect(Array.from(scene.poses[1]!.position)).toEqual([0.25, 0, 0])
    } finally {
      runtime.dispose()
    }
  })

  it('refuses an MJB episode whose model file is missing or corrupt', async () => {
    const mujoco = await loadMujoco()
    const missing = await mjbEpisode()
    missing.world = new Map()
    expect(() => WorldRuntime.open({ mujoco, episode: missing, source: 'mjb.episode.zip' })).toThrow(/world\/model\.mjb/)
    const corrupt = await mjbEpisode()
    corrupt.world.set('world/model.mjb', new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))
    expect(() => WorldRuntime.open({ mujoco, episode: corrupt, source: 'mjb.episode.zip' })).toThrow(/could not compile world\/model\.mjb/)
  })
})
