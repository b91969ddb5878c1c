// Zod schemas of manifest.json (environment.md §2.3–§2.5) and its parts; cross-field rules live in validate-manifest.ts.
import * as z from 'zod'

/** Lowercase hex SHA-256. */
export const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/)

/** A finite 3-vector. */
export const Vec3Schema = z.tuple([z.number(), z.number(), z.number()])
/** A finite 4-vector (quaternions are [w, x, y, z]). */
export const Vec4Schema = z.tuple([z.number(), z.number(), z.number(), z.number()])

/** The MuJoCo version every episode is bound to. */
export const EPISODE_ENGINE = '3.12.0'
/** `mjSTATE_INTEGRATION` in MuJoCo 3.12.0 (all 14 state bits). */
export const MJ_STATE_INTEGRATION = 16383

/** The 15 tool names an archive may enable; `end_episode` is retired but legal (§2.4). */
export const TOOL_NAMES = [
  'list_objects', 'get_object', 'get_scene', 'get_state', 'translate_objects', 'rotate_objects',
  'set_object_pose', 'group_objects', 'ungroup_objects', 'capture_scene', 'move_camera', 'apply_force',
  'start_episode', 'end_episode', 'advance_simulation',
] as const
export const ToolNameSchema = z.enum(TOOL_NAMES)

/** Durations and thresholds of §2.4: within (0, 60]. */
const PhysicsLimitSchema = z.number().gt(0).lte(60)

export const PhysicsSchema = z.strictObject({
  enabled: z.boolean(),
  gravity: Vec3Schema,
  detection: z.boolean(),
  response: z.boolean(),
  strategy: z.enum(['fixed', 'settle']),
  duration: PhysicsLimitSchema,
  maxDuration: PhysicsLimitSchema,
  quietDuration: PhysicsLimitSchema,
  linearThreshold: PhysicsLimitSchema,
  angularThreshold: PhysicsLimitSchema,
})

export const RuntimeSchema = z.strictObject({
  physics: PhysicsSchema,
  enabledTools: z.array(ToolNameSchema).meta({ uniqueItems: true }),
})

/** One catalog entry; the id is the MuJoCo body name. */
export const ObjectEntrySchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  type: z.literal('rigid'),
  collisionEnabled: z.boolean().optional(),
})

/** Who produced an episode (manifest) or executed a call (call rows). */
export const ProducerSchema = z.strictObject({
  backend: z.enum(['wasm', 'native']),
  engine: z.literal(EPISODE_ENGINE),
  implementation: z.string().min(1),
  language: z.string().min(1),
  renderer: z.string().optional(),
  build: Sha256HexSchema.optional(),
  engineBuild: Sha256HexSchema.optional(),
})

export const LifecycleSchema = z.enum(['setup', 'active', 'ended'])

/** MJB episodes only: the model is `world/<path>` compiled with `mj_loadModel`. */
export const ModelDeclarationSchema = z.strictObject({
  format: z.literal('mjb'),
  path: z.string().min(1),
})

export const ManifestSchema = z.strictObject({
  format: z.literal('3dwebagent-episode'),
  version: z.literal(1),
  engine: z.literal(EPISODE_ENGINE),
  contract: z.literal('3dwebagent-runtime-1'),
  id: z.string().min(1),
  name: z.string(),
  units: z.enum(['SI', 'normalized']),
  /** `mjtState` bit mask of every `integration` row; always 16383. */
  stateSpec: z.int().min(0),
  /** Length of every `integration` row: `mj_stateSize(model, stateSpec)`. */
  stateSize: z.int().min(1),
  runtime: RuntimeSchema,
  objects: z.array(ObjectEntrySchema),
  /** SHA-256 of every member except manifest.json, keyed by full archive path. */
  hashes: z.record(z.string(), Sha256HexSchema),
  lifecycle: LifecycleSchema,
  /** MuJoCo `data.time` at recording start (s); every `sim_*` value is relative to it. */
  originTime: z.number(),
  task: z.string().optional(),
  /** Present iff lifecycle is `ended`. */
  end: z.strictObject({ reason: z.string(), outcome: z.string().optional() }).optional(),
  requiredCapabilities: z.array(z.string()).meta({ uniqueItems: true }),
  producer: ProducerSchema,
  model: ModelDeclarationSchema.optional(),
})

export type Manifest = z.infer<typeof ManifestSchema>
export type ObjectEntry = z.infer<typeof ObjectEntrySchema>
export type Producer = z.infer<typeof ProducerSchema>
export type RuntimeSettings = z.infer<typeof RuntimeSchema>
export type Lifecycle = z.infer<typeof LifecycleSchema>
export type ToolName = z.infer<typeof ToolNameSchema>
export type Vec3 = z.infer<typeof Vec3Schema>
export type Vec4 = z.infer<typeof Vec4Schema>
