// Test support (page): a compiled benchmark-like world with live MuJoCo data, poses set by state rows; asserts nothing.
import type { MjData, MjModel } from '@mujoco/mujoco'
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import { MJ_STATE_INTEGRATION, partPositionOffset } from '../../../src/episode/index.ts'
import type { Episode } from '../../../src/episode/index.ts'
import { compileEpisodeModel, loadMujoco, type Mujoco } from '../../../src/world/index.ts'
import { buildSetupEpisode } from '../../helpers/episode-fixture.ts'

export interface FixtureWorld {
  mujoco: Mujoco
  episode: Episode
  model: MjModel
  data: MjData
  /** Copy of the initial integration row (every part at the identity pose). */
  initial: Float64Array
  /** mj_setState + mj_forward of `state`. */
  restore(state: Float64Array): void
  /** The initial row with part `part` (1-based) translated to `position`. */
  moved(part: number, position: readonly [number, number, number], base?: Float64Array): Float64Array
  dispose(): void
}

export function loadPageMujoco(): Promise<Mujoco> {
  return loadMujoco({ locateFile: path => (path.endsWith('.wasm') ? wasmUrl : path) })
}

/** `buildSetupEpisode({parts})` compiled in the page, its initial state restored. */
export async function openFixtureWorld(parts: number): Promise<FixtureWorld> {
  const mujoco = await loadPageMujoco()
  const episode = buildSetupEpisode({ parts })
  const model = compileEpisodeModel(mujoco, episode, 'fixture')
  const data = new mujoco.MjData(model)
  const initial = new Float64Array(episode.initial.integration)
  const restore = (state: Float64Array): void => {
    mujoco.mj_setState(model, data, state as unknown as number[], MJ_STATE_INTEGRATION)
    mujoco.mj_forward(model, data)
  }
  restore(initial)
  return {
    mujoco, episode, model, data, initial, restore,
    moved: (part, position, base = initial) => {
      const state = new Float64Array(base)
      state.set(position, partPositionOffset(part))
      return state
    },
    dispose: () => {
      data.delete()
      model.delete()
    },
  }
}
