// Public entry of the world runtime (isomorphic: Node and page); the environment's tools will join it.
export { WorldError, WORLD_ERROR_CODES, type WorldErrorCode } from './errors.ts'
export { loadMujoco, MUJOCO_VERSION, type LoadMujocoOptions, type Mujoco } from './mujoco-runtime.ts'
export { compileWorld, type CompileWorldOptions, type ModelDeclaration } from './compile-world.ts'
export { readBodyPoses, type BodyPose, type ReadBodyPosesOptions } from './body-poses.ts'
export { assertSafeAssetPaths } from './asset-paths.ts'
export { compileEpisodeModel, type EpisodeModelInput } from './check-episode-model.ts'
export { checkInitialEpisode } from './check-initial-episode.ts'
export { CAPTURE_RENDER, type CameraState, type RenderView, type SceneRenderer } from './renderer.ts'
