// Reads ZIP members into a name → bytes map and enforces the member-level rules (§2.1, §2.11, §2.16); no JSON parsing.
import JSZip from 'jszip'
import { EpisodeError } from './errors.ts'
import { compareCodePoints } from '../shared/code-points.ts'
import { classifyMember, isSafeRelativePath, REQUIRED_MEMBERS } from './member-names.ts'
import { sha256Hex } from './sha256.ts'
import { readZipEntryNames } from './zip-entries.ts'

/**
 * Every member's bytes keyed by name. Names are taken from the raw central directory, so duplicates and
 * unsafe names are caught even where JSZip would merge or hide them.
 */
export async function readMembers(bytes: Uint8Array, source: string): Promise<Map<string, Uint8Array>> {
  const names = readZipEntryNames(bytes, source)
  const seen = new Set<string>()
  for (const name of names) {
    if (!isSafeRelativePath(name)) {
      throw new EpisodeError('EPISODE_MEMBER_UNSAFE', `member name ${JSON.stringify(name)} is not a safe relative path (absolute, "..", ".", empty segment, backslash or colon); the archive may try to write outside its folder. Do not open it.`, { source, member: name })
    }
    if (seen.has(name)) {
      throw new EpisodeError('EPISODE_MEMBER_DUPLICATE', 'the member name appears twice in the ZIP directory; member names must be unique. Re-export the episode.', { source, member: name })
    }
    seen.add(name)
  }
  let zip: JSZip
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: true })
  } catch (cause) {
    throw new EpisodeError('EPISODE_ZIP_INVALID', `is not a readable ZIP archive (${cause instanceof Error ? cause.message : String(cause)}). Re-export or re-download the episode.`, { source, cause })
  }
  const loaded = Object.keys(zip.files)
  if (loaded.length !== names.length || loaded.some(name => !seen.has(name))) {
    throw new EpisodeError('EPISODE_MEMBER_UNSAFE', 'the ZIP library reads member names differently from the ZIP directory; the archive is ambiguous. Re-export it with a standard ZIP writer.', { source })
  }
  const members = new Map<string, Uint8Array>()
  for (const name of names) {
    const entry = zip.files[name]
    if (entry === undefined || entry.dir) {
      throw new EpisodeError('EPISODE_MEMBER_UNSAFE', 'is a directory entry; episode archives contain files only.', { source, member: name })
    }
    members.set(name, await entry.async('uint8array'))
  }
  return members
}

/** Every member is allowed and every required member is present. */
export function checkMemberSet(members: ReadonlyMap<string, Uint8Array>, source: string): void {
  for (const name of members.keys()) {
    if (classifyMember(name) === undefined) {
      throw new EpisodeError('EPISODE_MEMBER_EXTRA', 'is not an episode member; only manifest.json, frames.jsonl, frames.bin, calls.jsonl, events.jsonl, world/… and observations/… are allowed (legacy actions.jsonl included). Remove it or re-export the episode.', { source, member: name })
    }
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
