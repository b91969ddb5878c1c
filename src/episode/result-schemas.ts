// Zod schemas of stored call results, one per call name (environment.md §4.4–§4.7); no observation lookup here.
import * as z from 'zod'
import type { CallName } from './call-schema.ts'
import { CameraSchema, GroupSchema } from './frame-schema.ts'
import { ObjectEntrySchema, RuntimeSchema, Vec3Schema, Vec4Schema } from './manifest-schema.ts'

/** Observation file name: lowercase hex SHA-256 of the PNG plus `.png`. */
export const OBSERVATION_NAME_PATTERN = /^[a-f0-9]{64}\.png$/

const UnitsSchema = z.enum(['SI', 'normalized'])

const GeometrySchema = z.strictObject({
  index: z.int().min(0),
  type: z.int().min(0),
  size: Vec3Schema,
  friction: Vec3Schema,
  condim: z.int().min(0),
  collidable: z.boolean(),
})

/** `get_object` result; also each entry of `get_state.objects`. */
const ObjectStateSchema = z.strictObject({
  ...ObjectEntrySchema.shape,
  position: Vec3Schema,
  quaternion: Vec4Schema,
  velocity: z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]),
  mass: z.number(),
  movable: z.boolean(),
  inertia: Vec3Schema,
  centerOfMass: Vec3Schema,
  inertiaQuaternion: Vec4Schema,
  geometries: z.array(GeometrySchema),
})

/** Result of every committing call (§4.6). */
const MutationResultSchema = z.strictObject({
  status: z.literal('completed'),
  index: z.int().min(1),
  physics: z.enum(['disabled', 'advanced', 'settled', 'timeout']).optional(),
  steps: z.int().min(0).optional(),
  result: GroupSchema.optional(),
  duration: z.number().optional(),
})

/** Stored image node: the PNG lives in `observations/<observation>`. */
export const StoredImageSchema = z.strictObject({
  type: z.literal('image'),
  mimeType: z.literal('image/png'),
  observation: z.string().regex(OBSERVATION_NAME_PATTERN),
})

const CaptureResultSchema = z.strictObject({
  content: z.array(StoredImageSchema).min(1),
  camera: CameraSchema,
  // Schema constants of the reference renderer (§4.7 capture_scene).
  render: z.strictObject({
    width: z.literal(1024),
    height: z.literal(768),
    pixelRatio: z.literal(1),
    fovy: z.literal(38),
    near: z.literal(0.01),
    far: z.literal(1000),
  }),
})

const ListObjectsResultSchema = z.strictObject({
  objects: z.array(ObjectEntrySchema),
  groups: z.array(GroupSchema),
})

const GetSceneResultSchema = z.strictObject({
  name: z.string(),
  units: UnitsSchema,
  up: z.literal('Z'),
  quaternion: z.literal('wxyz'),
  runtime: RuntimeSchema,
  objects: z.array(ObjectEntrySchema),
})

const GetStateResultSchema = z.strictObject({
  index: z.int().min(0),
  units: UnitsSchema,
  objects: z.array(ObjectStateSchema),
  groups: z.array(GroupSchema),
  camera: CameraSchema,
  contacts: z.array(z.strictObject({
    objects: z.tuple([z.string(), z.string()]),
    position: Vec3Schema,
    distance: z.number(),
  })),
})

/** The result schema of each call name; complete by construction (`Record<CallName, …>`). */
export const RESULT_SCHEMAS = {
  list_objects: ListObjectsResultSchema,
  get_object: ObjectStateSchema,
  get_scene: GetSceneResultSchema,
  get_state: GetStateResultSchema,
  translate_objects: MutationResultSchema,
  rotate_objects: MutationResultSchema,
  set_object_pose: MutationResultSchema,
  group_objects: MutationResultSchema,
  ungroup_objects: MutationResultSchema,
  capture_scene: CaptureResultSchema,
  move_camera: MutationResultSchema,
  apply_force: MutationResultSchema,
  start_episode: z.strictObject({ status: z.literal('active') }),
  end_episode: z.strictObject({ status: z.literal('ended'), reason: z.string(), outcome: z.string().optional() }),
  advance_simulation: MutationResultSchema,
  edit_poses: MutationResultSchema,
  set_camera: MutationResultSchema,
} satisfies Record<CallName, z.ZodType>
