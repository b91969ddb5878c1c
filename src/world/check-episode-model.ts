// The runtime's on-open model checks (environment.md §2.12 rule 6, §2.16 "Runtime, on open"); no state changes.
import type { MjModel } from '@mujoco/mujoco'
import { compileWorld, type ModelDeclaration } from './compile-world.ts'
import { WorldError } from './errors.ts'
import type { Mujoco } from './mujoco-runtime.ts'

/** MuJoCo `mjJNT_FREE`. */
const FREE_JOINT = 0

/** The parts of a decoded episode these checks read. */
export interface EpisodeModelInput {
  manifest: {
    stateSpec: number
    stateSize: number
    objects: readonly { id: string }[]
    model?: ModelDeclaration | undefined
  }
  world: ReadonlyMap<string, Uint8Array>
}

/**
 * Compiles the episode's world and checks it against the manifest: `mj_stateSize(stateSpec)` equals
 * `stateSize`, one catalogue entry per non-world body, every object id names a body. Throws `WorldError`.
 * Returns the compiled model, which the caller must `delete()`.
 */
export function compileEpisodeModel(mujoco: Mujoco, episode: EpisodeModelInput, source: string): MjModel {
  const { manifest } = episode
  const model = compileWorld(mujoco, episode.world, { model: manifest.model, source })
  try {
    const stateSize = mujoco.mj_stateSize(model, manifest.stateSpec)
    if (stateSize !== manifest.stateSize) {
      throw new WorldError('WORLD_STATE', `manifest.stateSize is ${manifest.stateSize} but the compiled model's mj_stateSize(${manifest.stateSpec}) is ${stateSize}; re-export the episode from its model`, { file: source })
    }
    if (manifest.objects.length !== model.nbody - 1) {
      throw new WorldError('WORLD_BODY_MISSING', `manifest.objects lists ${manifest.objects.length} objects but the model has ${model.nbody - 1} non-world bodies; the catalogue needs one entry per body`, { file: source })
    }
    const parents = model.body_parentid as ArrayLike<number>
    const jointCounts = model.body_jntnum as ArrayLike<number>
    const jointStarts = model.body_jntadr as ArrayLike<number>
    const jointTypes = model.jnt_type as ArrayLike<number>
    for (const object of manifest.objects) {
      const body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY.value, object.id)
      if (body < 1) throw new WorldError('WORLD_BODY_MISSING', `object "${object.id}" names no body of the compiled model`, { file: source })
      const isFree = parents[body] === 0 && jointCounts[body] === 1 && jointTypes[jointStarts[body] ?? -1] === FREE_JOINT
      if (!isFree) throw new WorldError('WORLD_UNSUPPORTED', `Object requires an independent free joint: ${object.id} (a direct child of the world body with exactly one free joint)`, { file: source })
    }
    return model
  } catch (error) {
    model.delete()
    throw error
  }
}
