// Executes one validated tool or human command against the live world (environment.md §4.7): read-only
// results, capture, and the mutating edits run through the caller's commit. No validation order, no recording rows.
import { sha256Hex } from '../episode/index.ts'
import { bytesToBase64 } from '../shared/base64.ts'
import type { Manifest } from '../episode/index.ts'
import type { LiveWorld } from './live-world.ts'
import type { AppliedForce, PhysicsRun } from './physics-loop.ts'
import { CAPTURE_RENDER, type SceneRenderer } from './renderer.ts'
import { getSceneResult, getStateResult, listObjectsResult, objectState } from './scene-queries.ts'
import {
  groupBodies, moveAgentCamera, resolveIds, rotateBodies, setAgentCamera, setBodyPose, translateBodies, ungroup,
} from './scene-edits.ts'
import type { CommandInput, CommandName } from './tool-catalog.ts'
import { MESSAGES, ToolError } from './tool-error.ts'

/** Largest force apply_force accepts (N, §4.7). */
const MAX_FORCE_N = 20

/** One commit of a mutating command (§2.14 rule 5). */
export interface CommitRequest {
  /** The kinematic edit; a throw here rolls back (rollback trace frame, no state). */
  apply(): void
  /** Physical operations run physics afterwards when enabled. */
  isPhysical: boolean
  duration?: number | undefined
  force?: AppliedForce | undefined
}

export interface CommitResult {
  /** Index of the committed state (0 when a setup-time human edit replaced `initial`). */
  index: number
  run: PhysicsRun
  /** `data.time` advanced by the commit (s). */
  elapsed: number
}

export interface CommandContext {
  world: LiveWorld
  manifest: Manifest
  renderer: SceneRenderer | undefined
  stateCount: number
  /** True when this call is the first recorded call of the episode (start_episode's `task`). */
  isFirstCall: boolean
  commit(request: CommitRequest): Promise<CommitResult>
  setTask(task: string): void
  addObservation(name: string, png: Uint8Array): void
  /** Marks the call's producer with the renderer name (capture calls). */
  markRenderer(name: string): void
}

/** What a command returns: the stored result and, when it differs (captures), the wire result. */
export interface CommandResult {
  stored: Record<string, unknown>
  wire?: Record<string, unknown>
}

export async function executeCommand<N extends CommandName>(context: CommandContext, name: N, input: CommandInput<N>): Promise<CommandResult> {
  // `input` is typed per name by the caller; narrowing a generic by `name` needs one local switch on a union value.
  const command = { name, input } as AnyCommand
  const { world, manifest } = context
  switch (command.name) {
    case 'list_objects':
      return { stored: listObjectsResult(manifest, world.groups) }
    case 'get_object': {
      const entry = manifest.objects.find(object => object.id === command.input.id)
      if (entry === undefined) throw new ToolError(MESSAGES.unknownObject(command.input.id))
      return { stored: { ...objectState(world, entry) } }
    }
    case 'get_scene':
      return { stored: getSceneResult(manifest) }
    case 'get_state':
      return { stored: getStateResult({ world, manifest, stateCount: context.stateCount }) }
    case 'start_episode':
      if (context.isFirstCall && command.input.task !== undefined) context.setTask(command.input.task)
      return { stored: { status: 'active' } }
    case 'capture_scene':
      return capture(context)
    case 'translate_objects': {
      const bodies = resolveIds(world, command.input.ids)
      return physical(await context.commit({ isPhysical: true, apply: () => translateBodies(world, bodies, command.input.delta, command.input.space) }))
    }
    case 'rotate_objects': {
      const { ids, angles, space, pivot } = command.input
      const bodies = resolveIds(world, ids)
      return physical(await context.commit({ isPhysical: true, apply: () => rotateBodies(world, bodies, angles, space, pivot) }))
    }
    case 'set_object_pose': {
      const { id, position, quaternion } = command.input
      const bodies = resolveIds(world, [id])
      return physical(await context.commit({ isPhysical: true, apply: () => setBodyPose(world, bodies, position, quaternion) }))
    }
    case 'edit_poses': {
      const { poses } = command.input
      const targets = poses.map(pose => ({ pose, bodies: resolveIds(world, [pose.id]) }))
      if (new Set(poses.map(pose => pose.id)).size !== poses.length) throw new ToolError('Invalid edit_poses arguments: pose ids must be unique.')
      return physical(await context.commit({
        isPhysical: true,
        apply: () => {
          for (const { pose, bodies } of targets) setBodyPose(world, bodies, pose.position, pose.quaternion)
        },
      }))
    }
    case 'group_objects': {
      const bodies = resolveIds(world, command.input.ids)
      let group: ReturnType<typeof groupBodies> | undefined
      const done = await context.commit({ isPhysical: false, apply: () => { group = groupBodies(world, manifest.id, bodies, command.input.name) } })
      return { stored: { status: 'completed', result: group, index: done.index } }
    }
    case 'ungroup_objects': {
      const { ids } = command.input
      return nonPhysical(await context.commit({ isPhysical: false, apply: () => ungroup(world, ids) }))
    }
    case 'move_camera': {
      const move = command.input
      return nonPhysical(await context.commit({ isPhysical: false, apply: () => moveAgentCamera(world, move) }))
    }
    case 'set_camera': {
      const { camera } = command.input
      return nonPhysical(await context.commit({ isPhysical: false, apply: () => setAgentCamera(world, camera) }))
    }
    case 'apply_force': {
      const { id, force } = command.input
      if (!manifest.runtime.physics.enabled || Math.hypot(force[0], force[1], force[2]) > MAX_FORCE_N) throw new ToolError(MESSAGES.force)
      const body = world.object(id)
      if (body === undefined) throw new ToolError(MESSAGES.notFree(id))
      return physical(await context.commit({ isPhysical: true, apply: () => {}, force: { body: body.body, values: [force[0], force[1], force[2]] } }))
    }
    case 'advance_simulation': {
      if (!manifest.runtime.physics.enabled) throw new ToolError(MESSAGES.physicsDisabled)
      const done = await context.commit({ isPhysical: true, apply: () => {}, duration: command.input.duration })
      return { stored: { status: 'completed', physics: done.run.physics, steps: done.run.steps, duration: done.elapsed, index: done.index } }
    }
    default:
      return assertNever(command)
  }
}

type AnyCommand = { [N in CommandName]: { name: N, input: CommandInput<N> } }[CommandName]

// Physical result (§4.6): exactly {status, physics: "disabled", index} without physics; `steps` otherwise.
function physical(done: CommitResult): CommandResult {
  if (done.run.physics === 'disabled') return { stored: { status: 'completed', physics: 'disabled', index: done.index } }
  return { stored: { status: 'completed', physics: done.run.physics, steps: done.run.steps, index: done.index } }
}

function nonPhysical(done: CommitResult): CommandResult {
  return { stored: { status: 'completed', index: done.index } }
}

async function capture(context: CommandContext): Promise<CommandResult> {
  const { renderer, world } = context
  if (renderer === undefined) throw new ToolError(MESSAGES.noRenderer)
  context.markRenderer(renderer.name)
  const camera = { position: [...world.camera.position], target: [...world.camera.target] }
  const png = await renderer.capture({ model: world.model, data: world.data, camera: { position: world.camera.position, target: world.camera.target } })
  const observation = `${await sha256Hex(png)}.png`
  context.addObservation(observation, png)
  const render = { ...CAPTURE_RENDER }
  return {
    stored: { content: [{ type: 'image', mimeType: 'image/png', observation }], camera, render },
    wire: { content: [{ type: 'image', mimeType: 'image/png', data: bytesToBase64(png) }], camera, render },
  }
}

function assertNever(value: never): never {
  throw new ToolError(`Unhandled command: ${JSON.stringify(value)}`)
}
