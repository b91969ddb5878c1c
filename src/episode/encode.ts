// Writes an Episode as a deterministic archive after validating it; it never reads archives.
import { zipSync, type Zippable } from 'fflate'
import { DEFAULT_EPISODE_SOURCE } from './errors.ts'
import { encodeFramesBin } from './frames-bin.ts'
import { encodeJsonLines, encodeUtf8, stringifyCanonical } from './jsonl.ts'
import { compareCodePoints } from '../shared/code-points.ts'
import { OBSERVATIONS_PREFIX } from './member-names.ts'
import { sha256Hex } from './sha256.ts'
import { validateEpisode } from './validate-episode.ts'
import type { Episode } from './episode.ts'

/** Timestamp of every member: 1980-01-01 00:00:00, the DOS epoch (as a UTC instant; the ZIP fields hold no zone). */
export const EPISODE_ZIP_DATE = new Date(Date.UTC(1980, 0, 1, 0, 0, 0))
/** Regular file, mode 0644 (written with `create_system` 3, UNIX). */
export const EPISODE_ZIP_FILE_MODE = 0o100644
/** `create_system` (high byte of "version made by") 3: UNIX, so readers take the mode from the external attributes. */
const ZIP_SYSTEM_UNIX = 3
/** Deflate level of every member. */
export const EPISODE_ZIP_DEFLATE_LEVEL = 9

export interface EncodeEpisodeOptions {
  /** Label of the episode in error messages; default `<episode>`. */
  source?: string
}

/**
 * Validates `episode` (same rules as decoding, except the stale `manifest.hashes`, which are recomputed)
 * and writes a deterministic ZIP: members sorted by name, deflate, fixed timestamps and permissions,
 * canonical JSON, world and observation bytes copied untouched.
 */
export async function encodeEpisode(episode: Episode, options: EncodeEpisodeOptions = {}): Promise<Uint8Array> {
  await validateEpisode(episode, { source: options.source ?? DEFAULT_EPISODE_SOURCE })
  return zipMembersDeterministic(await serializeEpisodeMembers(episode))
}

/**
 * Every archive member of `episode`, sorted by name, with a manifest.json whose `hashes` are recomputed.
 * Performs no validation: `encodeEpisode` is the checked path; this is for callers that need the members
 * themselves (tests that break archives on purpose).
 */
export async function serializeEpisodeMembers(episode: Episode): Promise<Map<string, Uint8Array>> {
  const rows = [
    frameRow(episode.initial, 'initial'),
    ...episode.states.map(state => frameRow(state, 'state')),
    ...episode.trajectory.map(frame => frameRow(frame, 'trace')),
  ]
  const members = new Map<string, Uint8Array>([
    ['calls.jsonl', encodeJsonLines(episode.calls)],
    ['events.jsonl', encodeJsonLines(episode.events)],
    ['frames.bin', encodeFramesBin([episode.initial, ...episode.states, ...episode.trajectory].map(frame => frame.integration), episode.manifest.stateSize)],
    ['frames.jsonl', encodeJsonLines(rows)],
  ])
  for (const [name, bytes] of episode.world) members.set(name, bytes)
  for (const [name, bytes] of episode.observations) members.set(`${OBSERVATIONS_PREFIX}${name}`, bytes)
  const hashes: Record<string, string> = {}
  for (const name of [...members.keys()].sort(compareCodePoints)) hashes[name] = await sha256Hex(members.get(name) ?? new Uint8Array(0))
  members.set('manifest.json', encodeUtf8(stringifyCanonical({ ...episode.manifest, hashes }, { indent: 2 })))
  return new Map([...members].sort(([a], [b]) => compareCodePoints(a, b)))
}

/** A deterministic ZIP of `members` in code-point order of their names (fflate, the reference runtime's writer). */
export async function zipMembersDeterministic(members: ReadonlyMap<string, Uint8Array>): Promise<Uint8Array> {
  // fflate fills the DOS date and time from the *local* getters of `mtime`, so the date is built from local fields:
  // 1980-01-01 00:00:00 on every machine, whatever its time zone (EPISODE_ZIP_DATE's UTC instant would shift it).
  const options = {
    level: EPISODE_ZIP_DEFLATE_LEVEL,
    mtime: new Date(1980, 0, 1, 0, 0, 0),
    os: ZIP_SYSTEM_UNIX,
    attrs: (EPISODE_ZIP_FILE_MODE << 16) >>> 0,
  } as const
  // Object keys keep insertion order here: no member name is integer-like (all contain "." or "/").
  const files: Zippable = {}
  for (const name of [...members.keys()].sort(compareCodePoints)) files[name] = members.get(name) ?? new Uint8Array(0)
  return zipSync(files, options)
}

function frameRow<F extends { integration: Float64Array }>(frame: F, kind: 'initial' | 'state' | 'trace'): Omit<F, 'integration'> & { kind: string } {
  const { integration: _integration, ...fields } = frame
  return { ...fields, kind }
}
