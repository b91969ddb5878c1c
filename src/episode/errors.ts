// The episode domain's error class and its stable codes; no validation logic lives here.
import { AwbError } from '../shared/errors.ts'

/** Every code an `EpisodeError` can carry, with the rule it stands for (environment.md §2.16). */
export const EPISODE_ERROR_CODES = {
  EPISODE_ZIP_INVALID: 'the bytes are not a readable ZIP archive',
  EPISODE_MEMBER_UNSAFE: 'member names must be safe relative paths (no absolute path, `..`, `.`, empty segment, backslash or colon)',
  EPISODE_MEMBER_DUPLICATE: 'member names must be unique',
  EPISODE_MEMBER_EXTRA: 'only manifest.json, frames.jsonl, frames.bin, calls.jsonl, events.jsonl, world/… and observations/… are allowed',
  EPISODE_MEMBER_MISSING: 'a required member is absent',
  EPISODE_HASH_MISMATCH: 'manifest.hashes must list every member except manifest.json with its SHA-256',
  EPISODE_OBSERVATION_INVALID: 'observations are PNG files named by the SHA-256 of their bytes',
  EPISODE_JSON_INVALID: 'JSON and JSONL members must be UTF-8 JSON',
  EPISODE_SCHEMA: 'the logical episode must validate against the episode JSON Schema',
  EPISODE_FRAMES_LENGTH: 'frames.bin must hold exactly rows × stateSize float64 values',
  EPISODE_NONFINITE_STATE: 'every integration value must be finite',
  EPISODE_FRAME_ORDER: 'frames.jsonl holds one initial row, then states with indices 1..n, then trace rows',
  EPISODE_CAMERA: 'cameras must be finite with |position − target| ≥ 0.001',
  EPISODE_GROUP: 'groups need a unique non-object id and ≥ 2 known members that are in no other group',
  EPISODE_MANIFEST: 'manifest rules a JSON Schema cannot express (unique object ids, quietDuration ≤ maxDuration, safe model path)',
  EPISODE_CALL: 'call rows must be indexed by position, uniquely identified, timestamped and consistent in status',
  EPISODE_REFERENCE: 'calls must reference existing states, trace ranges and observations',
  EPISODE_RESULT_SCHEMA: 'a completed call result must validate against its tool result schema',
  EPISODE_EVENT: 'every call has exactly a request then a complete event, indexed by position',
  EPISODE_TRAJECTORY: 'trace frames are indexed by position and lie inside their call trace range',
  EPISODE_LIFECYCLE: 'setup episodes carry no history, and lifecycle ended goes with manifest.end',
  EPISODE_MODEL_MISSING: 'the world model file must be present',
  EPISODE_ASSET_PATH_UNSAFE: 'world asset paths must be safe relative paths without encoded characters',
  EPISODE_STATE_LAYOUT: 'the integration row does not have the benchmark scene layout',
} as const

export type EpisodeErrorCode = keyof typeof EPISODE_ERROR_CODES

/** The label used for an archive when the caller gives none. */
export const DEFAULT_EPISODE_SOURCE = '<episode>'

export interface EpisodeErrorOptions {
  /** The archive: a file path or any label the caller chose. */
  source?: string
  /** The member inside the archive, plus a field path when known (`calls.jsonl[2].state_index`). */
  member?: string
  cause?: unknown
}

/**
 * A rejected or unwritable episode. The message is prefixed `<source> → <member>:` and states the
 * broken rule and what to do; `code` is stable.
 */
export class EpisodeError extends AwbError {
  declare readonly code: EpisodeErrorCode
  readonly source: string
  readonly member: string | undefined

  constructor(code: EpisodeErrorCode, message: string, options: EpisodeErrorOptions = {}) {
    const source = options.source ?? DEFAULT_EPISODE_SOURCE
    super(code, message, { file: source, field: options.member, cause: options.cause })
    this.source = source
    this.member = options.member
  }
}
