// Builds the benchmark integration row that puts each listed part at its assembled pose; no MuJoCo stepping, no drawing.
import type { MjModel } from '@mujoco/mujoco'
import { benchmarkStateSize, MJ_STATE_INTEGRATION, partPositionOffset, partQuaternionOffset } from '../../episode/index.ts'
import type { Mujoco } from '../../world/index.ts'
import { RenderError } from '../../render/index.ts'

/** A part's body and assembled pose (position xyz, quaternion wxyz as MuJoCo stores it). */
export interface AssembledPose {
  bodyId: string
  position: readonly [number, number, number]
  quaternion: readonly [number, number, number, number]
}

/** `mjtJoint` value of a free joint. */
const FREE_JOINT = 0
/** qpos values per free joint: position xyz then quaternion wxyz. */
const QPOS_PER_PART = 7

/**
 * The `mjSTATE_INTEGRATION` row (31N + 7 values, state-layout.ts) of the benchmark scene `model` with every
 * listed part at its pose and every other part at the identity pose; velocities, actuation and time are 0.
 * Checks that `model` is a benchmark scene: N world-parented free bodies whose qpos follow body order.
 * Throws `RenderError` (`RENDER_MODEL_INVALID`) naming `source` when the model has another layout or lacks a body.
 */
export function assembledIntegration(mujoco: Mujoco, model: MjModel, poses: readonly AssembledPose[], source: string): Float64Array {
  const partCount = model.nbody - 1
  const stateSize = mujoco.mj_stateSize(model, MJ_STATE_INTEGRATION)
  if (partCount < 1 || stateSize !== benchmarkStateSize(partCount)) {
    throw new RenderError('RENDER_MODEL_INVALID', `${source}: the model has ${model.nbody} bodies and an integration state of ${stateSize} values, not a benchmark scene of N free parts (31N + 7); reference pages need the sample's episode world`)
  }
  const row = new Float64Array(stateSize)
  for (let part = 1; part <= partCount; part++) {
    assertFreePart(model, part, source)
    row[partQuaternionOffset(part)] = 1
  }
  for (const pose of poses) {
    const body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY.value, pose.bodyId)
    if (body < 1) throw new RenderError('RENDER_MODEL_INVALID', `${source}: the page lists body "${pose.bodyId}" but the model has no such body; pass parts of this world only`)
    row.set(pose.position, partPositionOffset(body))
    row.set(pose.quaternion, partQuaternionOffset(body))
  }
  return row
}

// Part `part` (1-based body id) must own exactly one free joint at qpos 7(part − 1), the layout state-layout.ts assumes.
function assertFreePart(model: MjModel, part: number, source: string): void {
  const joint = (model.body_jntadr as Int32Array)[part] ?? -1
  const jointCount = (model.body_jntnum as Int32Array)[part] ?? 0
  const parent = (model.body_parentid as Int32Array)[part] ?? -1
  const type = (model.jnt_type as Int32Array)[joint] ?? -1
  const qposAddress = (model.jnt_qposadr as Int32Array)[joint] ?? -1
  if (parent !== 0 || jointCount !== 1 || type !== FREE_JOINT || qposAddress !== QPOS_PER_PART * (part - 1)) {
    throw new RenderError('RENDER_MODEL_INVALID', `${source}: body ${part} is not a world-parented free part at qpos ${QPOS_PER_PART * (part - 1)} (parent ${parent}, ${jointCount} joints, type ${type}, qpos ${qposAddress}); reference pages need a benchmark scene`)
  }
}
