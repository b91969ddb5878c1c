// What the tool reference says about each tool beyond its catalog entry: argument meanings, the result in words,
// the failure messages that apply (texts from the runtime's MESSAGES) and the example input. Data only; runs nothing.
import { MAX_POSITION } from '../../src/world/runtime.ts'
import { MESSAGES } from '../../src/world/tool-error.ts'
import type { CurrentToolName } from '../../src/world/index.ts'

/** The two parts every example uses: A (`part-0001`) and B (`part-0002`). */
export const PART_A = 'part-0001'
export const PART_B = 'part-0002'

/** Where a tool's example runs. */
export type ExampleWorld =
  /** The benchmark sample as agents get it. */
  | 'benchmark'
  /** The same sample with physics enabled and all 14 tools on (`WorldRuntime.configure`): tools benchmark episodes disable. */
  | 'physics'

export interface ToolNote {
  /** Meaning of each argument, by name; every property of the tool's JSON Schema has one (checked by the generator). */
  arguments: Record<string, string>
  /** The result, in words. */
  result: string
  /** The failure messages specific to this tool (the common ones are listed once). */
  errors: string[]
  /** The example call's input; a function when it needs an earlier example's answer (by tool name). */
  example: Record<string, unknown> | ((answers: ReadonlyMap<CurrentToolName, unknown>) => Record<string, unknown>)
  /** Worlds the example runs in, in order (default: benchmark only). */
  worlds?: ExampleWorld[]
  /** Said under the example. */
  exampleNote?: string
}

const IDS = 'Object or group ids (a group id stands for its members; duplicates after expansion are dropped, first seen kept).'
const SPACE = '`world` (default): the vector is in world axes. `camera`: in the agent camera\'s right / up / forward axes.'

function groupIdOf(answers: ReadonlyMap<CurrentToolName, unknown>): string {
  const answer = answers.get('group_objects') as { result?: { id?: unknown } } | undefined
  const id = answer?.result?.id
  if (typeof id !== 'string') throw new TypeError('the ungroup_objects example needs the group_objects example\'s group id')
  return id
}

export const TOOL_NOTES = {
  list_objects: {
    arguments: {},
    result: 'The object catalog (`id`, display `name`, `type` "rigid", `collisionEnabled` when set) and the live groups (`id`, `name`, `members`).',
    errors: [],
    example: {},
  },
  get_object: {
    arguments: { id: 'An object id (not a group id).' },
    result: 'The body\'s `position` (world, its origin) and `quaternion` (wxyz), `velocity` (MuJoCo `cvel`: rotational xyz then translational xyz), `mass`, `movable`, `inertia` (principal), `centerOfMass` (`body_ipos`, in the **body** frame), `inertiaQuaternion`, and `geometries` (`index`, `type` 7 = mesh, `size` = half-extents of the mesh\'s bounding box in its own frame, `friction`, `condim`, `collidable`). See [Where a part is](#where-a-part-is): none of these says where the part\'s geometry is.',
    errors: [MESSAGES.unknownObject('<id>')],
    example: { id: PART_B },
  },
  get_scene: {
    arguments: {},
    result: 'The scene: `name`, `units`, `up` "Z", `quaternion` "wxyz", `runtime` (`physics` settings and `enabledTools`) and the object catalog. No task text, no answers.',
    errors: [],
    example: {},
  },
  get_state: {
    arguments: {},
    result: 'The latest live state: `index` (committed states so far), `units`, `objects` (the `get_object` answer of every part), `groups`, the agent `camera` (`position`, `target`) and `contacts` (always `[]` in benchmark episodes: collision detection is off).',
    errors: [],
    example: {},
  },
  translate_objects: {
    arguments: { ids: IDS, delta: 'The displacement added to every body\'s position, in episode units.', space: SPACE },
    result: 'A mutation: `{"status":"completed","physics":"disabled","index":k}`, k the new committed state.',
    errors: [MESSAGES.notFree('<id>'), MESSAGES.outOfRange('<id>', MAX_POSITION)],
    example: { ids: [PART_B], delta: [0.1, 0, 0] },
  },
  rotate_objects: {
    arguments: {
      ids: IDS,
      angles: 'Degrees about the X, then Y, then Z axis (fixed axes, extrinsic).',
      space: SPACE,
      pivot: 'The world point to rotate about. Default: the mean of the bodies\' origins, which is the world origin for parts not yet moved, not their centres.',
    },
    result: 'A mutation, as translate_objects. Every body turns about the pivot; a group turns rigidly.',
    errors: [MESSAGES.notFree('<id>'), MESSAGES.outOfRange('<id>', MAX_POSITION)],
    example: { ids: [PART_B], angles: [0, 0, 45] },
  },
  set_object_pose: {
    arguments: {
      id: 'An object id; a group id sets every member to the same pose.',
      position: 'The new absolute position of the body\'s origin (world).',
      quaternion: 'The new absolute orientation, wxyz; normalized.',
    },
    result: 'A mutation, as translate_objects. At least one of `position` / `quaternion` is required (`anyOf`).',
    errors: [MESSAGES.notFree('<id>'), MESSAGES.zeroQuaternion, MESSAGES.outOfRange('<id>', MAX_POSITION)],
    example: { id: PART_B, position: [0, 0, 0], quaternion: [1, 0, 0, 0] },
    exampleNote: 'This puts B back where it started: position [0, 0, 0] and the identity quaternion are every part\'s start pose.',
  },
  group_objects: {
    arguments: { ids: IDS, name: 'Display name (default "Group").' },
    result: 'A mutation with the new group: `{"status":"completed","result":{"id","name","members"},"index":k}`. Groups are logical (no welding); a part leaves its old group.',
    errors: [MESSAGES.notFree('<id>'), MESSAGES.twoObjects],
    example: { ids: [PART_A, PART_B], name: 'pair' },
  },
  ungroup_objects: {
    arguments: { ids: 'Group ids to remove; objects do not move.' },
    result: 'A mutation: `{"status":"completed","index":k}`.',
    errors: [MESSAGES.unknownGroup],
    example: answers => ({ ids: [groupIdOf(answers)] }),
  },
  capture_scene: {
    arguments: {},
    result: 'A 1024×768 PNG through the agent camera (38° vertical field of view), the camera, and the fixed render settings. Adds no state.',
    errors: [MESSAGES.noRenderer],
    example: {},
    exampleNote: 'Run with a stand-in renderer: a real capture needs the page\'s WebGL renderer (headless Chromium), so the image bytes are elided and the rest of the answer is the runtime\'s own.',
  },
  move_camera: {
    arguments: {
      yaw: 'Degrees of orbit about world +Z around the target (positive: counter-clockwise seen from above).',
      pitch: 'Degrees of orbit up or down (negative: towards a top view).',
      zoom: 'Multiplies the camera\'s distance to its target (< 1: closer).',
      right: 'Pans camera and target along the camera\'s right axis, in episode units.',
      up: 'Pans camera and target along the camera\'s up axis, in episode units.',
    },
    result: 'A mutation: `{"status":"completed","index":k}`; read the new camera with get_state. `{}` is a legal no-op that still commits.',
    errors: [],
    example: { yaw: 30, pitch: -15, zoom: 0.8 },
  },
  apply_force: {
    arguments: { id: 'An object id.', force: 'World force in newtons, magnitude ≤ 20, applied for the configured duration.' },
    result: 'A mutation with `physics` ("advanced", "settled" or "timeout") and `steps`.',
    errors: [MESSAGES.force, MESSAGES.notFree('<id>'), MESSAGES.unstable],
    example: { id: PART_A, force: [1, 0, 0] },
    worlds: ['benchmark', 'physics'],
  },
  start_episode: {
    arguments: { task: 'Replaces the episode\'s stored task text, only when this is the first recorded call.' },
    result: '`{"status":"active"}`. Idempotent: recording starts with the first call of any tool anyway.',
    errors: [],
    example: {},
  },
  advance_simulation: {
    arguments: { duration: 'Seconds of physics to run: ceil(duration / timestep) steps.' },
    result: 'A mutation with `physics` "advanced", `steps` and `duration` (the time advanced).',
    errors: [MESSAGES.physicsDisabled, MESSAGES.unstable],
    example: { duration: 0.1 },
    worlds: ['benchmark', 'physics'],
  },
} satisfies Record<CurrentToolName, ToolNote>

/** Failure messages every tool can answer, in the order the runtime checks them. */
export const COMMON_ERRORS: readonly string[] = [
  MESSAGES.ended,
  MESSAGES.invalidArguments('<tool>', '<what the JSON Schema validator says>'),
  MESSAGES.finite,
  MESSAGES.disabled('<tool>'),
  MESSAGES.busy,
  MESSAGES.cancelled,
]
