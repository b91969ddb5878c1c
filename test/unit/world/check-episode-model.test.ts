import { describe, expect, it } from 'vitest'
import { compileEpisodeModel, loadMujoco } from '../../../src/world/index.ts'
import { buildSetupEpisode } from '../../helpers/episode-fixture.ts'

async function check(edit: (episode: ReturnType<typeof buildSetupEpisode>) => void) {
  const mujoco = await loadMujoco()
  const episode = buildSetupEpisode({ parts: 3 })
  edit(episode)
  compileEpisodeModel(mujoco, episode, 'x.episode.zip').delete()
}

describe('compileEpisodeModel', () => {
  it('accepts a benchmark episode: state size 31N + 7, one object per free body', async () => {
    await expect(check(() => {})).resolves.toBeUndefined()
  })

  it('rejects a manifest state size that differs from the compiled model', async () => {
    await expect(check(e => { e.manifest.stateSize = 99 })).rejects.toThrow(/stateSize is 99 but the compiled model's mj_stateSize\(16383\) is 100/)
  })

  it('rejects a catalogue that misses a body or names an unknown one', async () => {
    await expect(check(e => { e.manifest.objects.pop() })).rejects.toThrow(/lists 2 objects but the model has 3/)
    await expect(check(e => { e.manifest.objects[0]!.id = 'part-9999' })).rejects.toThrow(/"part-9999" names no body/)
  })

  it('rejects a body that is not an independent free body', async () => {
    await expect(check((e) => {
      const xml = new TextDecoder().decode(e.world.get('world/model.xml')!).replace('<freejoint/>', '<joint type="hinge"/>')
      e.world.set('world/model.xml', new TextEncoder().encode(xml))
      e.manifest.stateSize = 100 - 6 - 3 * 5 // a hinge has 1 qpos and 1 dof instead of 7 and 6
    })).rejects.toThrow(/Object requires an independent free joint: part-0001/)
  })
})
