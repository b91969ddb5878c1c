// The agent tools of environment.md §4: each declared once (name, verbatim description, zod input schema,
// readOnlyHint) plus the human-only commands; JSON Schemas are generated from the zod schemas. No behaviour here.
import * as z from 'zod'

const Vec3InputSchema = z.tuple([z.number(), z.number(), z.number()])
const Vec4InputSchema = z.tuple([z.number(), z.number(), z.number(), z.number()])
/** Every `ids` array: ≥ 1 unique non-empty strings (§4.3). Uniqueness is checked by the JSON Schema validator. */
const IdsSchema = z.array(z.string().min(1)).min(1).meta({ uniqueItems: true })
const SpaceSchema = z.enum(['world', 'camera'])

/** Input schemas of the 14 current tools (all strict: `additionalProperties: false`). */
export const TOOL_INPUT_SCHEMAS = {
  list_objects: z.strictObject({}),
  get_object: z.strictObject({ id: z.string().min(1) }),
  get_scene: z.strictObject({}),
  get_state: z.strictObject({}),
  translate_objects: z.strictObject({ ids: IdsSchema, delta: Vec3InputSchema, space: SpaceSchema.optional() }),
  rotate_objects: z.strictObject({ ids: IdsSchema, angles: Vec3InputSchema, space: SpaceSchema.optional(), pivot: Vec3InputSchema.optional() }),
  set_object_pose: z.strictObject({ id: z.string().min(1), position: Vec3InputSchema.optional(), quaternion: Vec4InputSchema.optional() }),
  group_objects: z.strictObject({ ids: IdsSchema, name: z.string().max(200).optional() }),
  ungroup_objects: z.strictObject({ ids: IdsSchema }),
  capture_scene: z.strictObject({}),
  move_camera: z.strictObject({
    yaw: z.number().min(-180).max(180).optional(),
    pitch: z.number().min(-85).max(85).optional(),
    zoom: z.number().min(0.25).max(4).optional(),
    right: z.number().optional(),
    up: z.number().optional(),
  }),
  apply_force: z.strictObject({ id: z.string().min(1), force: Vec3InputSchema }),
  start_episode: z.strictObject({ task: z.string().optional() }),
  advance_simulation: z.strictObject({ duration: z.number().gt(0).max(60) }),
}

/** Input schemas of the human-only commands (§4.7), never registered as agent tools. */
export const HUMAN_INPUT_SCHEMAS = {
  edit_poses: z.strictObject({
    poses: z.array(z.strictObject({ id: z.string().min(1), position: Vec3InputSchema, quaternion: Vec4InputSchema })).min(1),
  }),
  set_camera: z.strictObject({ camera: z.strictObject({ position: Vec3InputSchema, target: Vec3InputSchema }) }),
}

/** Every command's input schema, agent tools and human commands together. */
export const COMMAND_INPUT_SCHEMAS: Record<CommandName, z.ZodType> = { ...TOOL_INPUT_SCHEMAS, ...HUMAN_INPUT_SCHEMAS }

export type CurrentToolName = keyof typeof TOOL_INPUT_SCHEMAS
export type HumanCommandName = keyof typeof HUMAN_INPUT_SCHEMAS
export type CommandName = CurrentToolName | HumanCommandName
export type CommandInput<N extends CommandName> = z.infer<(typeof TOOL_INPUT_SCHEMAS & typeof HUMAN_INPUT_SCHEMAS)[N]>

/** The 14 current tool names, in the order of `enabledTools` in §2.4 (`end_episode` is retired). */
export const CURRENT_TOOL_NAMES = Object.keys(TOOL_INPUT_SCHEMAS) as CurrentToolName[]

/** Verbatim descriptions (§4.2): agents see them through `list_webmcp_tools`. */
export const TOOL_DESCRIPTIONS = {
  list_objects: 'List stable object and group IDs and names in this page-local world.',
  get_object: 'Read one object pose, velocity, mass and geometry in episode units. Quaternion is wxyz.',
  get_scene: 'Read units, runtime settings and scene objects. No external task answers.',
  get_state: 'Read latest live object states, groups, camera and contacts, independently of history browsing.',
  translate_objects: 'Translate explicit object or group IDs by delta in world or camera right/up/forward axes. One operation node.',
  rotate_objects: 'Rotate explicit IDs by X/Y/Z degrees in sequence. Pivot defaults to mean object origin, or provide a world point. Camera axes are right/up/forward.',
  set_object_pose: 'Set one object absolute world position and/or wxyz quaternion. Direct pose edits clear velocities of edited objects.',
  group_objects: 'Create a logical transform group from explicit IDs without snapping or physical welding.',
  ungroup_objects: 'Remove specified group IDs without moving objects.',
  capture_scene: 'Capture the latest world through the agent camera; store the original PNG observation.',
  move_camera: 'Relative yaw/pitch degrees, distance multiplier zoom, or camera right/up pan. Does not advance physics.',
  apply_force: 'Apply world force (newtons, magnitude <=20) to an object for configured duration, clear it and run configured settling. Requires physics enabled.',
  start_episode: 'Start recording; repeated starts are idempotent.',
  advance_simulation: 'Advance enabled physics for ceil(duration / timestep) steps.',
} satisfies Record<CurrentToolName, string>

/** `readOnlyHint` per tool (§4.2). */
export const TOOL_READ_ONLY = {
  list_objects: true, get_object: true, get_scene: true, get_state: true, translate_objects: false,
  rotate_objects: false, set_object_pose: false, group_objects: false, ungroup_objects: false,
  capture_scene: true, move_camera: false, apply_force: false, start_episode: false, advance_simulation: false,
} satisfies Record<CurrentToolName, boolean>

/** What a page registers per tool (§4.2) minus `execute`, which the WebMCP layer binds to `WorldRuntime.callTool`. */
export interface ToolDefinition {
  name: CurrentToolName
  description: string
  /** Draft-07 JSON Schema of the input (no `$schema` key). */
  inputSchema: Record<string, unknown>
  annotations: { readOnlyHint: boolean }
}

/** Schema additions zod cannot express: set_object_pose needs position and/or quaternion (§4.7, `anyOf`). */
const SCHEMA_EXTRAS: Partial<Record<CommandName, Record<string, unknown>>> = {
  set_object_pose: { anyOf: [{ required: ['position'] }, { required: ['quaternion'] }] },
}

/** The draft-07 JSON Schema of a command's input, as agents see it and as inputs are validated (§4.3 step 1). */
export function commandJsonSchema(name: CommandName): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(COMMAND_INPUT_SCHEMAS[name], { target: 'draft-7' })
  return { ...json, ...SCHEMA_EXTRAS[name] }
}

/** The registration objects of every current tool, in catalog order. */
export function toolDefinition(name: CurrentToolName): ToolDefinition {
  return { name, description: TOOL_DESCRIPTIONS[name], inputSchema: commandJsonSchema(name), annotations: { readOnlyHint: TOOL_READ_ONLY[name] } }
}

export function isCurrentToolName(name: string): name is CurrentToolName {
  return Object.hasOwn(TOOL_INPUT_SCHEMAS, name)
}

export function isHumanCommandName(name: string): name is HumanCommandName {
  return Object.hasOwn(HUMAN_INPUT_SCHEMAS, name)
}
