// Reads ZIP members into a name → bytes map and enforces the member-level rules (§2.1, §2.11, §2.16); no JSON parsing.
import { unzipSync, type UnzipFileInfo } from 'fflate'
import { EpisodeError } from './errors.ts'
import { compareCodePoints } from '../shared/code-points.ts'
import { classifyMember, isSafeRelativePath, REQUIRED_MEMBERS } from './member-names.ts'
import { sha256Hex } from './sha256.ts'

/**
 * Largest sum of the members' declared uncompressed sizes (bytes). fflate inflates each member into a buffer of its
 * declared size, so this bounds the memory a decode can take: far above any real episode (the harness refuses final
 * archives over 256 MiB, and captures, most of their bytes, do not deflate), far below a ZIP bomb.
 */
export const MAX_EPISODE_UNZIPPED_BYTES = 1024 * 1024 * 1024

/**
 * Every member's bytes keyed by name. The central directory is listed first without inflating anything, so
 * duplicate, unsafe and foreign names and oversized archives are refused before any member is decompressed
 * (fflate alone would keep the last of two same-named members). Names are decoded as fflate decodes them,
 * the reference runtime's reader: UTF-8 when flagged (bit 11), Latin-1 otherwise.
 */
export async function readMembers(bytes: Uint8Array, source: string): Promise<Map<string, Uint8Array>> {
  const listed: UnzipFileInfo[] = []
  unzip(bytes, source, entry => { listed.push(entry); return false })
  const seen = new Set<string>()
  let unzippedBytes = 0
  for (const { name, originalSize } of listed) {
    if (!isSafeRelativePath(name)) {
      throw new EpisodeError('EPISODE_MEMBER_UNSAFE', `member name ${JSON.stringify(name)} is not a safe relative path (absolute, "..", ".", empty segment, backslash or colon); the archive may try to write outside its folder. Do not open it.`, { source, member: name })
    }
    if (seen.has(name)) {
      throw new EpisodeError('EPISODE_MEMBER_DUPLICATE', 'the member name appears twice in the ZIP directory; member names must be unique. Re-export the episode.', { source, member: name })
    }
    seen.add(name)
    unzippedBytes += originalSize
  }
  // Foreign members are refused before inflating, so no name like "__proto__" becomes a key of fflate's plain object.
  for (const { name } of listed) if (classifyMember(name) === undefined) throw foreignMember(name, source)
  if (unzippedBytes > MAX_EPISODE_UNZIPPED_BYTES) {
    throw invalidZip(`its members declare ${unzippedBytes} bytes uncompressed, more than the ${MAX_EPISODE_UNZIPPED_BYTES}-byte limit of an episode; it may be a ZIP bomb`, source)
  }
  const files = unzip(bytes, source)
  const members = new Map<string, Uint8Array>()
  for (const { name, originalSize } of listed) {
    const data = Object.hasOwn(files, name) ? files[name] : undefined
    // fflate inflates into a buffer of the declared size and does not check CRC-32: a member that ends early
    // shows here; one that runs long is cut to its declared size, which its SHA-256 in manifest.hashes then
    // catches (manifest.json, not hashed, must still parse and pass its schema).
    if (data === undefined || data.byteLength !== originalSize) {
      throw invalidZip(`member ${JSON.stringify(name)} unzips to ${data?.byteLength ?? 0} bytes but the ZIP directory declares ${originalSize}`, source)
    }
    members.set(name, data)
  }
  return members
}

/** fflate's `unzipSync`, its failures (no end-of-central-directory record, bad deflate data…) as EPISODE_ZIP_INVALID. */
function unzip(bytes: Uint8Array, source: string, filter?: (entry: UnzipFileInfo) => boolean): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes, filter === undefined ? undefined : { filter })
  } catch (cause) {
    throw new EpisodeError('EPISODE_ZIP_INVALID', `is not a readable ZIP archive (${cause instanceof Error ? cause.message : String(cause)}). Re-export or re-download the episode.`, { source, cause })
  }
}

function invalidZip(detail: string, source: string): EpisodeError {
  return new EpisodeError('EPISODE_ZIP_INVALID', `is not a readable ZIP archive: ${detail}. Re-export or re-download the episode.`, { source })
}

function foreignMember(name: string, source: string): EpisodeError {
  return new EpisodeError('EPISODE_MEMBER_EXTRA', 'is not an episode member; only manifest.json, frames.jsonl, frames.bin, calls.jsonl, events.jsonl, world/… and observations/… are allowed (legacy actions.jsonl included). Remove it or re-export the episode.', { source, member: name })
}

/** Every member is allowed and every required member is present. */
export function checkMemberSet(members: ReadonlyMap<string, Uint8Array>, source: string): void {
  for (const name of members.keys()) {
    if (classifyMember(name) === undefined) throw foreignMember(name, source)
  }
  for (const name of REQUIRED_MEMBERS) {
    if (!members.has(name)) {
      throw new EpisodeError('EPISODE_MEMBER_MISSING', 'is required in every episode archive (an empty calls.jsonl/events.jsonl is 0 bytes); re-export the episode.', { source, member: name })
    }
  }
}

/**
 * The full sorted (path, SHA-256) inventory of all members but manifest.json must equal manifest.hashes:
 * a missing, extra or changed member is an `Archive checksum mismatch` (§2.11).
 */
export async function checkHashInventory(members: ReadonlyMap<string, Uint8Array>, hashes: Readonly<Record<string, string>>, source: string): Promise<void> {
  const names = new Set([...members.keys(), ...Object.keys(hashes)])
  names.delete('manifest.json')
  for (const name of [...names].sort(compareCodePoints)) {
    const bytes = members.get(name)
    const listed = Object.hasOwn(hashes, name) ? hashes[name] : undefined
    const where = { source, member: name }
    if (bytes === undefined) {
      throw new EpisodeError('EPISODE_HASH_MISMATCH', 'Archive checksum mismatch: manifest.hashes lists this member but the archive lacks it. Restore the member or re-export the episode.', where)
    }
    if (listed === undefined) {
      throw new EpisodeError('EPISODE_HASH_MISMATCH', 'Archive checksum mismatch: the member is not listed in manifest.hashes. Every member except manifest.json must be hashed; re-export the episode.', where)
    }
    const actual = await sha256Hex(bytes)
    if (actual !== listed) {
      throw new EpisodeError('EPISODE_HASH_MISMATCH', `Archive checksum mismatch: SHA-256 is ${actual} but manifest.hashes says ${listed}; the member was changed after export. Restore it or re-export the episode.`, where)
    }
  }
}
