// The kinematic edits of the mutating tools on the live world (environment.md §4.5–§4.7): id resolution, pose
// edits with velocity zeroing, group changes, camera moves. No physics, no recording, no commit bookkeeping.
import type { Group } from '../episode/index.ts'
import { cameraAxes, cameraDistance, cameraToWorld, MIN_CAMERA_SEPARATION, moveCamera, type CameraMove } from './camera-math.ts'
import type { LiveWorld, ObjectBody } from './live-world.ts'
import type { CameraState } from './renderer.ts'
import { applyQuaternionToVector, composeAxisRotations, multiplyQuaternions, normalizeQuaternion, quaternionNorm } from './rotation-math.ts'
import { MESSAGES, ToolError } from './tool-error.ts'

/** |q| below this is a zero quaternion (§2.13). */
const MIN_QUATERNION_NORM = 1e-8
/** Default name of a new group (§2.5). */
const DEFAULT_GROUP_NAME = 'Group'

type Vec3 = [number, number, number]
type Space = 'world' | 'camera' | undefined

const WORLD_AXES = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1])

/**
 * `ids` → objects: group ids expand to their members, duplicates drop keeping first-seen order, and every
 * result must be a catalogue object (§4.5). Throws before any commit.
 */
export function resolveIds(world: LiveWorld, ids: readonly string[]): ObjectBody[] {
  const seen = new Set<string>()
  const resolved: ObjectBody[] = []
  for (const id of ids) {
    const members = world.groups.find(group => group.id === id)?.members ?? [id]
    for (const member of members) {
      if (seen.has(member)) continue
      seen.add(member)
      const object = world.object(member)
      if (object === undefined) throw new ToolError(MESSAGES.notFree(member))
      resolved.push(object)
    }
  }
  return resolved
}

/** Moves every body by `delta` (world, or camera right/up/forward); orientation unchanged; velocities zeroed. */
export function translateBodies(world: LiveWorld, bodies: readonly ObjectBody[], delta: Vec3, space: Space): void {
  const [dx, dy, dz] = space === 'camera' ? cameraToWorld(cameraAxes(new Float64Array(9), world.camera), delta[0], delta[1], delta[2]) : delta
  const qpos = world.data.qpos as Float64Array
  for (const { qposAddress: a } of bodies) {
    qpos[a] = (qpos[a] ?? 0) + dx
    qpos[a + 1] = (qpos[a + 1] ?? 0) + dy
    qpos[a + 2] = (qpos[a + 2] ?? 0) + dz
  }
  zeroVelocities(world, bodies)
}

/**
 * Rotates bodies rigidly about `pivot` (default: mean of their origins) by R = R3·R2·R1 about world or
 * camera axes (extrinsic, degrees): p ← R(p − c) + c, q ← normalize(R ⊗ q); velocities zeroed (§4.7).
 */
export function rotateBodies(world: LiveWorld, bodies: readonly ObjectBody[], angles: Vec3, space: Space, pivot: Vec3 | undefined): void {
  const axes = space === 'camera' ? cameraAxes(new Float64Array(9), world.camera) : WORLD_AXES
  const rotation = composeAxisRotations(new Float64Array(4), axes, angles)
  const qpos = world.data.qpos as Float64Array
  const centre = pivot ?? meanOrigin(qpos, bodies)
  const point = new Float64Array(3)
  const quaternion = new Float64Array(4)
  for (const { qposAddress: a } of bodies) {
    point[0] = (qpos[a] ?? 0) - centre[0]
    point[1] = (qpos[a + 1] ?? 0) - centre[1]
    point[2] = (qpos[a + 2] ?? 0) - centre[2]
    applyQuaternionToVector(point, 0, rotation)
    qpos[a] = (point[0] ?? 0) + centre[0]
    qpos[a + 1] = (point[1] ?? 0) + centre[1]
    qpos[a + 2] = (point[2] ?? 0) + centre[2]
    quaternion.set(qpos.subarray(a + 3, a + 7))
    normalizeQuaternion(multiplyQuaternions(quaternion, rotation, quaternion))
    qpos.set(quaternion, a + 3)
  }
  zeroVelocities(world, bodies)
}

/**
 * Sets an absolute pose on every body (set_object_pose sets all members of a group to the same pose);
 * the quaternion is normalized and |q| < 1e-8 throws `Quaternion cannot be zero.`; velocities zeroed.
 */
export function setBodyPose(world: LiveWorld, bodies: readonly ObjectBody[], position: readonly number[] | undefined, quaternion: readonly number[] | undefined): void {
  const unit = quaternion === undefined ? undefined : unitQuaternion(quaternion)
  const qpos = world.data.qpos as Float64Array
  for (const { qposAddress: a } of bodies) {
    if (position !== undefined) {
      qpos[a] = position[0] ?? 0
      qpos[a + 1] = position[1] ?? 0
      qpos[a + 2] = position[2] ?? 0
    }
    if (unit !== undefined) qpos.set(unit, a + 3)
  }
  zeroVelocities(world, bodies)
}

/** The normalized copy of a wxyz quaternion; throws `Quaternion cannot be zero.` when |q| < 1e-8. */
export function unitQuaternion(quaternion: readonly number[]): Float64Array {
  const q = Float64Array.from(quaternion)
  if (!(quaternionNorm(q) >= MIN_QUATERNION_NORM)) throw new ToolError(MESSAGES.zeroQuaternion)
  return normalizeQuaternion(q)
}

/**
 * group_objects: ≥ 2 resolved objects, groups sharing a member dissolved, new id
 * `group-<episode id>-<++groupCounter>`, members in resolved order (§4.7). Returns the new group.
 */
export function groupBodies(world: LiveWorld, episodeId: string, bodies: readonly ObjectBody[], name: string | undefined): Group {
  if (bodies.length < 2) throw new ToolError(MESSAGES.twoObjects)
  const members = bodies.map(body => body.id)
  const memberSet = new Set(members)
  world.groups = world.groups.filter(group => !group.members.some(member => memberSet.has(member)))
  world.groupCounter++
  const group: Group = { id: `group-${episodeId}-${world.groupCounter}`, name: name === undefined || name === '' ? DEFAULT_GROUP_NAME : name, members }
  world.groups.push(group)
  return structuredClone(group)
}

/** ungroup_objects: every id must be an existing group (`Unknown group.`); objects do not move. */
export function ungroup(world: LiveWorld, ids: readonly string[]): void {
  for (const id of ids) if (!world.groups.some(group => group.id === id)) throw new ToolError(MESSAGES.unknownGroup)
  const removed = new Set(ids)
  world.groups = world.groups.filter(group => !removed.has(group.id))
}

/** move_camera (§4.8). */
export function moveAgentCamera(world: LiveWorld, move: CameraMove): void {
  setAgentCamera(world, moveCamera(world.camera, move))
}

/** set_camera / move_camera result: the camera must keep |position − target| ≥ 0.001 (§2.6). */
export function setAgentCamera(world: LiveWorld, camera: CameraState): void {
  if (!(cameraDistance(camera) >= MIN_CAMERA_SEPARATION)) {
    throw new ToolError(`Camera position and target must be at least ${MIN_CAMERA_SEPARATION} apart and finite.`)
  }
  world.camera = { position: [...camera.position], target: [...camera.target] }
}

function zeroVelocities(world: LiveWorld, bodies: readonly ObjectBody[]): void {
  const qvel = world.data.qvel as Float64Array
  for (const { dofAddress: a } of bodies) qvel.fill(0, a, a + 6)
}

function meanOrigin(qpos: Float64Array, bodies: readonly ObjectBody[]): Vec3 {
  let x = 0, y = 0, z = 0
  for (const { qposAddress: a } of bodies) {
    x += qpos[a] ?? 0
    y += qpos[a + 1] ?? 0
    z += qpos[a + 2] ?? 0
  }
  const n = bodies.length
  return [x / n, y / n, z / n]
}
