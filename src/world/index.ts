// Public entry of the world runtime (isomorphic: Node and page): MuJoCo loading and checks, WorldRuntime and its tools.
export { WorldError, WORLD_ERROR_CODES, type WorldErrorCode } from './errors.ts'
export { loadMujoco, MUJOCO_VERSION, type LoadMujocoOptions, type Mujoco } from './mujoco-runtime.ts'
export { compileWorld, type CompileWorldOptions, type ModelDeclaration } from './compile-world.ts'
export { readBodyPoses, type BodyPose, type ReadBodyPosesOptions } from './body-poses.ts'
export { assertSafeAssetPaths } from './asset-paths.ts'
export { compileEpisodeModel, type EpisodeModelInput } from './check-episode-model.ts'
export { checkInitialEpisode } from './check-initial-episode.ts'
export { CAPTURE_RENDER, type CameraState, type RenderView, type SceneRenderer } from './renderer.ts'
export {
  WorldRuntime, RUNTIME_PRODUCER,
  type OpenWorldOptions, type CallToolOptions, type ConfigureOptions, type ExportAsInitialOptions,
} from './runtime.ts'
export {
  CURRENT_TOOL_NAMES, TOOL_DESCRIPTIONS, TOOL_READ_ONLY, TOOL_INPUT_SCHEMAS, HUMAN_INPUT_SCHEMAS, commandJsonSchema, toolDefinition,
  type ToolDefinition, type CurrentToolName, type HumanCommandName, type CommandName,
} from './tool-catalog.ts'
export { ToolError, errorCodeOf, EXPIRED_REGISTRATION_MESSAGE, type Cancellation } from './tool-error.ts'
export { cameraAxes, cameraToWorld, moveCamera, type CameraMove } from './camera-math.ts'
export { composeAxisRotations, applyQuaternionToVector } from './rotation-math.ts'
