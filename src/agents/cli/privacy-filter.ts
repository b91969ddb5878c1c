// The conversation privacy filter (runner.md §4.6): removes hidden reasoning, system/developer turns, private
// channels and signature-like keys from agent events before they are written; pure, no I/O.

/** Content/item types that carry hidden reasoning. */
const PRIVATE_TYPES: ReadonlySet<string> = new Set(['reasoning', 'thinking', 'redacted_thinking'])
/** Message roles never written. */
const PRIVATE_ROLES: ReadonlySet<string> = new Set(['system', 'developer'])
/** Output channels of reasoning models that are not the answer. */
const PRIVATE_CHANNELS: ReadonlySet<string> = new Set(['analysis', 'justify', 'confidence'])
/** Keys removed wherever they appear. */
const PRIVATE_KEYS: ReadonlySet<string> = new Set(['signature', 'encrypted_content', 'system_prompt', 'instructions'])

/** True for a node the filter drops as a whole (a reasoning block, a system message, a private channel). */
export function isPrivateNode(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const { type, role, channel } = value as Record<string, unknown>
  return (typeof type === 'string' && PRIVATE_TYPES.has(type))
    || (typeof role === 'string' && PRIVATE_ROLES.has(role))
    || (typeof channel === 'string' && PRIVATE_CHANNELS.has(channel))
}

/**
 * A copy of `value` without private nodes (dropped from arrays and objects) and private keys. A private
 * node at the top answers `undefined`: the caller writes nothing.
 */
export function scrubPrivate(value: unknown): unknown {
  if (isPrivateNode(value)) return undefined
  if (Array.isArray(value)) return value.filter(item => !isPrivateNode(item)).map(scrubPrivate)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (PRIVATE_KEYS.has(key) || isPrivateNode(item)) continue
    out[key] = scrubPrivate(item)
  }
  return out
}
