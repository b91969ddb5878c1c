// The live MuJoCo world of an open episode: model + data, the mjSTATE_INTEGRATION vector, snapshot/restore
// (environment.md §2.6), the agent camera, groups, and §7 physics settings applied to the model. No tools, no recording.
import { compareCodePoints } from '../shared/code-points.ts'
import type { MjData, MjModel } from '@mujoco/mujoco'
import type { Group, ObjectEntry, RuntimeSettings } from '../episode/index.ts'
import { WorldError } from './errors.ts'
import type { Mujoco } from './mujoco-runtime.ts'
import type { CameraState } from './renderer.ts'

/** MuJoCo disable bits touched by §7 (`mjtDisableBit`). */
const DSBL_CONSTRAINT = 1
const DSBL_CONTACT = 16
const DSBL_AUTORESET = 65536

/** A frame's non-physics part plus its integration row: what snapshot/restore copy (§2.6). */
export interface WorldSnapshot {
  integration: Float64Array
  camera: CameraState
  groups: Group[]
  groupCounter: number
}

/** Addresses of one catalogue object's free joint in qpos / qvel. */
export interface ObjectBody {
  id: string
  body: number
  /** First of 7 qpos values: position xyz, quaternion wxyz. */
  qposAddress: number
  /** First of 6 qvel values: linear xyz (world), angular xyz (body). */
  dofAddress: number
}

/**
 * Owns the `MjData` of an open episode (the model stays owned by the caller of `dispose`).
 * Invariant between operations: `data` holds the latest committed state with `mj_forward` done.
 */
export class LiveWorld {
  readonly mujoco: Mujoco
  readonly model: MjModel
  readonly data: MjData
  readonly stateSpec: number
  readonly stateSize: number
  camera: CameraState
  groups: Group[]
  groupCounter: number
  private readonly objects = new Map<string, ObjectBody>()
  private readonly authoredContype: Int32Array
  private readonly authoredConaffinity: Int32Array
  private readonly authoredDisableFlags: number

  constructor(mujoco: Mujoco, model: MjModel, stateSpec: number, catalog: readonly ObjectEntry[], frame: WorldSnapshot) {
    this.mujoco = mujoco
    this.model = model
    this.stateSpec = stateSpec
    this.stateSize = mujoco.mj_stateSize(model, stateSpec)
    this.data = new mujoco.MjData(model)
    this.authoredContype = Int32Array.from(model.geom_contype as ArrayLike<number>)
    this.authoredConaffinity = Int32Array.from(model.geom_conaffinity as ArrayLike<number>)
    this.authoredDisableFlags = model.opt.disableflags
    const jointStarts = model.body_jntadr as ArrayLike<number>
    const qposStarts = model.jnt_qposadr as ArrayLike<number>
    const dofStarts = model.jnt_dofadr as ArrayLike<number>
    for (const object of catalog) {
      const body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY.value, object.id)
      const joint = jointStarts[body] ?? -1
      this.objects.set(object.id, { id: object.id, body, qposAddress: qposStarts[joint] ?? -1, dofAddress: dofStarts[joint] ?? -1 })
    }
    this.camera = cloneCamera(frame.camera)
    this.groups = structuredClone(frame.groups)
    this.groupCounter = frame.groupCounter
    this.restoreIntegration(frame.integration)
  }

  /** The catalogue object `id`, or `undefined` (group ids and unknown names). */
  object(id: string): ObjectBody | undefined {
    return this.objects.get(id)
  }

  /** Every catalogue object, in catalogue order. */
  allObjects(): IterableIterator<ObjectBody> {
    return this.objects.values()
  }

  /** `mj_getState(mjSTATE_INTEGRATION)` copied into a fresh array (the binding writes only into a `DoubleBuffer`). */
  readIntegration(): Float64Array {
    const buffer = new this.mujoco.DoubleBuffer(this.stateSize)
    try {
      this.mujoco.mj_getState(this.model, this.data, buffer, this.stateSpec)
      // GetView is a view of the wasm heap; copy before the buffer is freed.
      return Float64Array.from(buffer.GetView() as Float64Array)
    } finally {
      buffer.delete()
    }
  }

  /** restore = mj_setState → mj_forward → mj_setState: state bit-identical, dependent quantities current (§2.6). */
  restoreIntegration(integration: Float64Array): void {
    if (integration.length !== this.stateSize) {
      throw new WorldError('WORLD_STATE', `a state row has ${integration.length} values but the model's state size is ${this.stateSize}`)
    }
    // The binding is typed `number[]` but copies any array-like of numbers.
    const row = integration as unknown as number[]
    this.mujoco.mj_setState(this.model, this.data, row, this.stateSpec)
    this.mujoco.mj_forward(this.model, this.data)
    this.mujoco.mj_setState(this.model, this.data, row, this.stateSpec)
  }

  /** Deep copy of the live state, camera, groups and group counter. */
  snapshot(): WorldSnapshot {
    return { integration: this.readIntegration(), camera: cloneCamera(this.camera), groups: structuredClone(this.groups), groupCounter: this.groupCounter }
  }

  /** Restores a snapshot exactly (state, camera, groups, counter). */
  restore(snapshot: WorldSnapshot): void {
    this.restoreIntegration(snapshot.integration)
    this.camera = cloneCamera(snapshot.camera)
    this.groups = structuredClone(snapshot.groups)
    this.groupCounter = snapshot.groupCounter
  }

  /** `data.time` (s). */
  get time(): number {
    return this.data.time
  }

  /**
   * Applies `runtime.physics` to the model (§7): gravity (zero while disabled), contype/conaffinity (authored
   * values only with detection on and the object's collision not overridden), AUTORESET always disabled,
   * CONTACT iff !detection, CONSTRAINT iff !response; other disable bits keep their authored values.
   */
  applyPhysics(physics: RuntimeSettings['physics'], catalog: readonly ObjectEntry[]): void {
    const { model } = this
    const gravity = model.opt.gravity as Float64Array
    gravity[0] = physics.enabled ? physics.gravity[0] : 0
    gravity[1] = physics.enabled ? physics.gravity[1] : 0
    gravity[2] = physics.enabled ? physics.gravity[2] : 0
    const collisionOff = new Set<number>()
    for (const object of catalog) {
      if (object.collisionEnabled === false) collisionOff.add(this.objects.get(object.id)?.body ?? -1)
    }
    const contype = model.geom_contype as Int32Array
    const conaffinity = model.geom_conaffinity as Int32Array
    const geomBodies = model.geom_bodyid as ArrayLike<number>
    for (let g = 0; g < model.ngeom; g++) {
      const enabled = physics.detection && !collisionOff.has(geomBodies[g] ?? -1)
      contype[g] = enabled ? this.authoredContype[g] ?? 0 : 0
      conaffinity[g] = enabled ? this.authoredConaffinity[g] ?? 0 : 0
    }
    let flags = this.authoredDisableFlags | DSBL_AUTORESET
    flags = physics.detection ? flags & ~DSBL_CONTACT : flags | DSBL_CONTACT
    flags = physics.response ? flags & ~DSBL_CONSTRAINT : flags | DSBL_CONSTRAINT
    model.opt.disableflags = flags
  }

  /** Authored contype | conaffinity of geom `g` ≠ 0, ignoring run-time overrides (§4.7 `collidable`). */
  isAuthoredCollidable(g: number): boolean {
    return ((this.authoredContype[g] ?? 0) | (this.authoredConaffinity[g] ?? 0)) !== 0
  }

  /**
   * Contacts of a collision-only pass (§4.7 get_state) with the contact/constraint disable bits cleared for
   * the pass; the integration state is untouched. Bodies are named, the world body `world`.
   */
  collisionContacts(): { objects: [string, string], position: [number, number, number], distance: number }[] {
    const { mujoco, model, data } = this
    const flags = model.opt.disableflags
    model.opt.disableflags = flags & ~(DSBL_CONTACT | DSBL_CONSTRAINT)
    const contacts: { objects: [string, string], position: [number, number, number], distance: number }[] = []
    try {
      mujoco.mj_collision(model, data)
      const geomBodies = model.geom_bodyid as ArrayLike<number>
      const list = data.contact
      try {
        for (let i = 0; i < data.ncon; i++) {
          const contact = list.get(i)
          if (contact === undefined) continue
          const pos = contact.pos as ArrayLike<number>
          contacts.push({
            objects: [this.bodyName(geomBodies[contact.geom1] ?? 0), this.bodyName(geomBodies[contact.geom2] ?? 0)],
            position: [pos[0] ?? 0, pos[1] ?? 0, pos[2] ?? 0],
            distance: contact.dist,
          })
          contact.delete()
        }
      } finally {
        list.delete()
      }
    } finally {
      model.opt.disableflags = flags
    }
    return contacts.sort(compareContacts)
  }

  /** The MuJoCo name of body `body` (`world` for 0). */
  bodyName(body: number): string {
    if (body === 0) return 'world'
    return this.mujoco.mj_id2name(this.model, this.mujoco.mjtObj.mjOBJ_BODY.value, body) || `body-${body}`
  }

  /** Frees the MjData; the runtime deletes the model. */
  dispose(): void {
    this.data.delete()
  }
}

export function cloneCamera(camera: CameraState): CameraState {
  return { position: [camera.position[0], camera.position[1], camera.position[2]], target: [camera.target[0], camera.target[1], camera.target[2]] }
}

// Names, then position (x, y, z), then distance (§4.7).
function compareContacts(a: { objects: [string, string], position: number[], distance: number }, b: typeof a): number {
  for (let k = 0; k < 2; k++) {
    const order = compareCodePoints(a.objects[k] ?? '', b.objects[k] ?? '')
    if (order !== 0) return order
  }
  for (let k = 0; k < 3; k++) {
    const d = (a.position[k] ?? 0) - (b.position[k] ?? 0)
    if (d !== 0) return d
  }
  return a.distance - b.distance
}
