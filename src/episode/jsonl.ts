// UTF-8 JSON / JSONL parsing with located errors, and canonical (sorted-key) serialization; no schema checks.
import { EpisodeError } from './errors.ts'
import { compareCodePoints } from '../shared/code-points.ts'
import { splitJsonLines } from '../shared/json-lines.ts'

const _utf8 = new TextDecoder('utf-8', { fatal: true })
const _encoder = new TextEncoder()

/** Decodes strict UTF-8 or throws `EPISODE_JSON_INVALID` naming the member. */
export function decodeUtf8(bytes: Uint8Array, member: string, source: string): string {
  try {
    return _utf8.decode(bytes)
  } catch (cause) {
    throw new EpisodeError('EPISODE_JSON_INVALID', 'is not valid UTF-8; re-export the episode with a writer that emits UTF-8 JSON.', { source, member, cause })
  }
}

/** Parses one JSON document or throws `EPISODE_JSON_INVALID` naming the member. */
export function parseJson(text: string, member: string, source: string): unknown {
  try {
    return JSON.parse(text)
  } catch (cause) {
    throw new EpisodeError('EPISODE_JSON_INVALID', `is not valid JSON (${describe(cause)}); fix or re-export the member.`, { source, member, cause })
  }
}

/** Parses JSONL: one JSON value per line, blank lines skipped (§2.1). Returns the values with their 1-based line numbers. */
export function parseJsonLines(text: string, member: string, source: string): Array<{ line: number, value: unknown }> {
  const rows: Array<{ line: number, value: unknown }> = []
  for (const { line, value, error } of splitJsonLines(text)) {
    if (error !== undefined) throw new EpisodeError('EPISODE_JSON_INVALID', `is not valid JSON (${describe(error)}); fix or re-export the member.`, { source, member: `${member}:${line}`, cause: error })
    rows.push({ line, value })
  }
  return rows
}

/** JSON with object keys sorted by code point at every level, so equal values serialize to equal bytes. */
export function stringifyCanonical(value: unknown, options: { indent?: number } = {}): string {
  return JSON.stringify(sortKeys(value), null, options.indent)
}

/** UTF-8 bytes of JSONL rows joined by `\n`, no trailing newline; zero rows give 0 bytes. */
export function encodeJsonLines(rows: readonly unknown[]): Uint8Array {
  return _encoder.encode(rows.map(row => stringifyCanonical(row)).join('\n'))
}

export function encodeUtf8(text: string): Uint8Array {
  return _encoder.encode(text)
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (typeof value !== 'object' || value === null) return value
  const entries = Object.entries(value).sort(([a], [b]) => compareCodePoints(a, b))
  return Object.fromEntries(entries.map(([key, item]) => [key, sortKeys(item)]))
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause)
}
