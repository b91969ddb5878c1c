// Public entry of the episode domain: 3dwebagent-episode v1 decode/encode, validation, schemas and state layout.
export { decodeEpisode } from './decode.ts'
export type { DecodeEpisodeOptions } from './decode.ts'
export {
  encodeEpisode,
  EPISODE_ZIP_DATE,
  EPISODE_ZIP_DEFLATE_LEVEL,
  EPISODE_ZIP_FILE_MODE,
  serializeEpisodeMembers,
} from './encode.ts'
export type { EncodeEpisodeOptions } from './encode.ts'
export { latestFrame } from './episode.ts'
export type { Episode, Frame, TraceFrame } from './episode.ts'
export { validateEpisode } from './validate-episode.ts'
export type { ValidateEpisodeOptions } from './validate-episode.ts'
export { DEFAULT_EPISODE_SOURCE, EPISODE_ERROR_CODES, EpisodeError } from './errors.ts'
export type { EpisodeErrorCode, EpisodeErrorOptions } from './errors.ts'
export { EPISODE_JSON_SCHEMA, LogicalEpisodeSchema } from './episode-schema.ts'
export type { LogicalEpisode } from './episode-schema.ts'
export {
  EPISODE_ENGINE,
  ManifestSchema,
  MJ_STATE_INTEGRATION,
  ObjectEntrySchema,
  ProducerSchema,
  RuntimeSchema,
  TOOL_NAMES,
} from './manifest-schema.ts'
export type { Lifecycle, Manifest, ObjectEntry, Producer, RuntimeSettings, ToolName, Vec3, Vec4 } from './manifest-schema.ts'
export { CameraSchema, GroupSchema } from './frame-schema.ts'
export type { Camera, Group, TracePhase } from './frame-schema.ts'
export { CallEventSchema, CallSchema, HUMAN_COMMAND_NAMES } from './call-schema.ts'
export type { Call, CallEvent, CallName, ErrorCode } from './call-schema.ts'
export { OBSERVATION_NAME_PATTERN, RESULT_SCHEMAS } from './result-schemas.ts'
export { isSafeRelativePath } from './member-names.ts'
export { sha256Hex } from './sha256.ts'
export {
  benchmarkPartCount,
  benchmarkPartId,
  benchmarkStateSize,
  partPositionOffset,
  partQuaternionOffset,
  readBenchmarkPoses,
} from './state-layout.ts'
export type { BenchmarkPoses } from './state-layout.ts'
