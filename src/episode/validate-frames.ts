// Frame rules of §2.6–§2.7 and §2.16 (indices, state rows, cameras, groups) on an in-memory episode; no calls.
import { EpisodeError } from './errors.ts'
import { assertFiniteRow } from './frames-bin.ts'
import type { Episode, Frame } from './episode.ts'
import type { Camera } from './frame-schema.ts'

/** Minimum eye-to-target distance of a valid camera (episode units). */
export const MIN_CAMERA_DISTANCE = 0.001

const MEMBER = 'frames.jsonl'

/** Checks every frame of the timeline and the trajectory. */
export function validateFrames(episode: Episode, source: string): void {
  const objectIds = new Set(episode.manifest.objects.map(object => object.id))
  const stateSize = episode.manifest.stateSize
  if (episode.initial.index !== 0) {
    throw new EpisodeError('EPISODE_FRAME_ORDER', `the initial frame has index ${episode.initial.index}; it must be 0.`, { source, member: `${MEMBER} initial` })
  }
  episode.states.forEach((state, k) => {
    if (state.index !== k + 1) {
      throw new EpisodeError('EPISODE_FRAME_ORDER', `state row ${k + 1} has index ${state.index}; states must carry indices 1..n contiguously and in order.`, { source, member: `${MEMBER} states[${k}]` })
    }
  })
  episode.trajectory.forEach((frame, k) => {
    if (frame.index !== k) {
      throw new EpisodeError('EPISODE_TRAJECTORY', `trace row ${k} has index ${frame.index}; a trace frame's index is its position in the trajectory.`, { source, member: `${MEMBER} trajectory[${k}]` })
    }
  })
  const frames: Array<[Frame, string]> = [
    [episode.initial, 'initial'],
    ...episode.states.map((state, k): [Frame, string] => [state, `states[${k}] (state index ${state.index})`]),
    ...episode.trajectory.map((frame, k): [Frame, string] => [frame, `trajectory[${k}]`]),
  ]
  frames.forEach(([frame, label], row) => {
    const member = `${MEMBER} ${label}`
    if (frame.integration.length !== stateSize) {
      throw new EpisodeError('EPISODE_FRAMES_LENGTH', `integration has ${frame.integration.length} values but manifest.stateSize is ${stateSize}; every frame must store the full mjSTATE_INTEGRATION vector.`, { source, member })
    }
    assertFiniteRow(frame.integration, row, { source, member, what: label })
    validateCamera(frame.camera, source, member)
    validateGroups(frame, objectIds, source, member)
  })
}

/** All finite and |position − target| ≥ 0.001 (§2.6). */
export function validateCamera(camera: Camera, source: string, member: string): void {
  const values = [...camera.position, ...camera.target]
  if (!values.every(Number.isFinite)) {
    throw new EpisodeError('EPISODE_CAMERA', 'camera position/target holds a non-finite value; cameras must be finite.', { source, member: `${member}.camera` })
  }
  const dx = camera.position[0] - camera.target[0]
  const dy = camera.position[1] - camera.target[1]
  const dz = camera.position[2] - camera.target[2]
  const distance = Math.hypot(dx, dy, dz)
  if (distance < MIN_CAMERA_DISTANCE) {
    throw new EpisodeError('EPISODE_CAMERA', `camera position is ${distance} from its target; it must be at least ${MIN_CAMERA_DISTANCE} away. Move the camera back.`, { source, member: `${member}.camera` })
  }
}

function validateGroups(frame: Frame, objectIds: ReadonlySet<string>, source: string, member: string): void {
  const groupIds = new Set<string>()
  const owner = new Map<string, string>()
  frame.groups.forEach((group, g) => {
    const where = { source, member: `${member}.groups[${g}]` }
    if (objectIds.has(group.id)) {
      throw new EpisodeError('EPISODE_GROUP', `group id "${group.id}" equals an object id; group ids must differ from object ids.`, where)
    }
    if (groupIds.has(group.id)) {
      throw new EpisodeError('EPISODE_GROUP', `group id "${group.id}" appears twice in the frame; group ids must be unique.`, where)
    }
    groupIds.add(group.id)
    if (group.members.length < 2 || new Set(group.members).size !== group.members.length) {
      throw new EpisodeError('EPISODE_GROUP', `group "${group.id}" needs at least 2 distinct members, got [${group.members.join(', ')}].`, where)
    }
    for (const id of group.members) {
      if (!objectIds.has(id)) {
        throw new EpisodeError('EPISODE_GROUP', `group "${group.id}" lists unknown member "${id}"; members must be ids of manifest.objects.`, where)
      }
      const previous = owner.get(id)
      if (previous !== undefined) {
        throw new EpisodeError('EPISODE_GROUP', `object "${id}" is in groups "${previous}" and "${group.id}"; an object belongs to at most one group.`, where)
      }
      owner.set(id, group.id)
    }
  })
}
