// Restores one integration state into MuJoCo and reads body world poses (scoring.md §3.3); no scoring here.
import type { MjModel } from '@mujoco/mujoco'
import { WorldError } from './errors.ts'
import type { Mujoco } from './mujoco-runtime.ts'

/** A body's world pose: `rotation` is the row-major 3×3 `xmat`, `position` the body-frame origin `xpos`. */
export interface BodyPose {
  rotation: Float64Array
  position: Float64Array
}

export interface ReadBodyPosesOptions {
  /** MuJoCo `mjtState` mask the row was recorded with (`manifest.stateSpec`, 16383 for integration). */
  stateSpec: number
  /** Label of the episode in error messages. */
  source?: string
}

/**
 * `mj_setState(integration)` + `mj_forward`, then each named body's `xpos` / `xmat`. No stepping, no groups.
 * Throws `WorldError` when the row length differs from `mj_stateSize` or a body name is unknown.
 */
export function readBodyPoses(
  mujoco: Mujoco,
  model: MjModel,
  integration: Float64Array,
  bodyNames: readonly string[],
  options: ReadBodyPosesOptions,
): BodyPose[] {
  const source = options.source ?? 'episode'
  const stateSize = mujoco.mj_stateSize(model, options.stateSpec)
  if (integration.length !== stateSize) {
    throw new WorldError('WORLD_STATE', `a state row has ${integration.length} values but the compiled model's state size is ${stateSize} (stateSpec ${options.stateSpec})`, { file: source })
  }
  const bodyIds = bodyNames.map((name) => {
    const id = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY.value, name)
    if (id < 1) throw new WorldError('WORLD_BODY_MISSING', `the compiled model has no body named "${name}"`, { file: source })
    return id
  })
  const data = new mujoco.MjData(model)
  try {
    // The binding is typed `number[]` but copies any array-like of numbers; a Float64Array avoids a copy.
    mujoco.mj_setState(model, data, integration as unknown as number[], options.stateSpec)
    mujoco.mj_forward(model, data)
    const xpos = data.xpos as Float64Array
    const xmat = data.xmat as Float64Array
    return bodyIds.map(id => ({
      position: Float64Array.from(xpos.subarray(3 * id, 3 * id + 3)),
      rotation: Float64Array.from(xmat.subarray(9 * id, 9 * id + 9)),
    }))
  } finally {
    data.delete()
  }
}
