// Results of the read-only tools list_objects, get_object, get_scene, get_state (environment.md §4.7), read
// from the live world; no mutation, no recording.
import type { Group, Manifest, ObjectEntry } from '../episode/index.ts'
import type { LiveWorld } from './live-world.ts'

/** MuJoCo `mjGEOM_MESH`. */
const MESH_GEOM = 7
/** MuJoCo `mjJNT_FREE`. */
const FREE_JOINT = 0

type Vec3 = [number, number, number]
type Vec4 = [number, number, number, number]

export interface ObjectState extends ObjectEntry {
  position: Vec3
  quaternion: Vec4
  velocity: [number, number, number, number, number, number]
  mass: number
  movable: boolean
  inertia: Vec3
  centerOfMass: Vec3
  inertiaQuaternion: Vec4
  geometries: { index: number, type: number, size: Vec3, friction: Vec3, condim: number, collidable: boolean }[]
}

export function listObjectsResult(manifest: Manifest, groups: readonly Group[]): { objects: ObjectEntry[], groups: Group[] } {
  return { objects: structuredClone(manifest.objects), groups: structuredClone([...groups]) }
}

export function getSceneResult(manifest: Manifest): Record<string, unknown> {
  return {
    name: manifest.name,
    units: manifest.units,
    up: 'Z',
    quaternion: 'wxyz',
    runtime: structuredClone(manifest.runtime),
    objects: structuredClone(manifest.objects),
  }
}

/** get_object for a catalogue entry (the caller has resolved the id). */
export function objectState(world: LiveWorld, entry: ObjectEntry): ObjectState {
  const { model, data } = world
  const body = world.object(entry.id)?.body ?? -1
  const xpos = data.xpos as Float64Array
  const xquat = data.xquat as Float64Array
  const cvel = data.cvel as Float64Array
  const inertia = model.body_inertia as Float64Array
  const ipos = model.body_ipos as Float64Array
  const iquat = model.body_iquat as Float64Array
  const mass = model.body_mass as Float64Array
  const parents = model.body_parentid as Int32Array
  const jointCounts = model.body_jntnum as Int32Array
  const jointStarts = model.body_jntadr as Int32Array
  const jointTypes = model.jnt_type as Int32Array
  const geomStart = (model.body_geomadr as Int32Array)[body] ?? 0
  const geomCount = (model.body_geomnum as Int32Array)[body] ?? 0
  const geomTypes = model.geom_type as Int32Array
  const geomSizes = model.geom_size as Float64Array
  const friction = model.geom_friction as Float64Array
  const condim = model.geom_condim as Int32Array
  const geometries: ObjectState['geometries'] = []
  for (let g = geomStart; g < geomStart + geomCount; g++) {
    geometries.push({
      index: g,
      type: geomTypes[g] ?? MESH_GEOM,
      size: vec3(geomSizes, 3 * g),
      friction: vec3(friction, 3 * g),
      condim: condim[g] ?? 3,
      collidable: world.isAuthoredCollidable(g),
    })
  }
  const state: ObjectState = {
    id: entry.id,
    name: entry.name,
    type: entry.type,
    ...(entry.collisionEnabled === undefined ? {} : { collisionEnabled: entry.collisionEnabled }),
    position: vec3(xpos, 3 * body),
    quaternion: vec4(xquat, 4 * body),
    velocity: [cvel[6 * body] ?? 0, cvel[6 * body + 1] ?? 0, cvel[6 * body + 2] ?? 0, cvel[6 * body + 3] ?? 0, cvel[6 * body + 4] ?? 0, cvel[6 * body + 5] ?? 0],
    mass: mass[body] ?? 0,
    movable: parents[body] === 0 && jointCounts[body] === 1 && jointTypes[jointStarts[body] ?? -1] === FREE_JOINT,
    inertia: vec3(inertia, 3 * body),
    centerOfMass: vec3(ipos, 3 * body),
    inertiaQuaternion: vec4(iquat, 4 * body),
    geometries,
  }
  return state
}

export interface GetStateInput {
  world: LiveWorld
  manifest: Manifest
  stateCount: number
}

export function getStateResult({ world, manifest, stateCount }: GetStateInput): Record<string, unknown> {
  return {
    index: stateCount,
    units: manifest.units,
    objects: manifest.objects.map(entry => objectState(world, entry)),
    groups: structuredClone(world.groups),
    camera: { position: [...world.camera.position], target: [...world.camera.target] },
    contacts: manifest.runtime.physics.detection ? world.collisionContacts() : [],
  }
}

function vec3(values: ArrayLike<number>, offset: number): Vec3 {
  return [values[offset] ?? 0, values[offset + 1] ?? 0, values[offset + 2] ?? 0]
}

function vec4(values: ArrayLike<number>, offset: number): Vec4 {
  return [values[offset] ?? 0, values[offset + 1] ?? 0, values[offset + 2] ?? 0, values[offset + 3] ?? 0]
}
