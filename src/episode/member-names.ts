// Classifies archive member names and checks path safety (§2.1, §2.16); it reads no member content.

/** Members every archive must contain, in code-point order. */
export const REQUIRED_MEMBERS = ['calls.jsonl', 'events.jsonl', 'frames.bin', 'frames.jsonl', 'manifest.json'] as const

export const WORLD_PREFIX = 'world/'
export const OBSERVATIONS_PREFIX = 'observations/'

export type MemberKind = 'manifest' | 'frames-jsonl' | 'frames-bin' | 'calls' | 'events' | 'world' | 'observation'

/**
 * True when `path` is a safe relative path: non-empty, not absolute, no backslash, no colon (drive letters),
 * no control character and no empty, `.` or `..` segment.
 */
export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.startsWith('/') || path.includes('\\') || path.includes(':')) return false
  // Control characters (NUL included) have no place in a portable path.
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) < 0x20) return false
  return path.split('/').every(segment => segment !== '' && segment !== '.' && segment !== '..')
}

/** The kind of an allowed member, or `undefined` when the name is not allowed in an episode. */
export function classifyMember(name: string): MemberKind | undefined {
  switch (name) {
    case 'manifest.json': return 'manifest'
    case 'frames.jsonl': return 'frames-jsonl'
    case 'frames.bin': return 'frames-bin'
    case 'calls.jsonl': return 'calls'
    case 'events.jsonl': return 'events'
  }
  if (name.startsWith(WORLD_PREFIX) && name.length > WORLD_PREFIX.length) return 'world'
  if (name.startsWith(OBSERVATIONS_PREFIX) && name.length > OBSERVATIONS_PREFIX.length) return 'observation'
  return undefined
}
