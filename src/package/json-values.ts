// Value helpers for JSON data read from the package: deep equality, canonical JSON (keys in code-point order); no I/O.
import { compareCodePoints } from '../shared/code-points.ts'

/** Structural equality of JSON values: same keys (any order), same array order, numbers by `===`. */
export function deepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, index) => deepEqualJson(item, b[index]))
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false
  const keysA = Object.keys(a)
  if (keysA.length !== Object.keys(b).length) return false
  return keysA.every(key => Object.hasOwn(b, key) && deepEqualJson(a[key], b[key]))
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Canonical JSON as Python writes it with `sort_keys=True, separators=(",", ":"), ensure_ascii=True`:
 * keys sorted by code point at every level, no whitespace, everything outside printable ASCII escaped as
 * lowercase `\uXXXX`. Numbers use JavaScript's formatting, which can differ from Python's (`1.0`, `1e-05`).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value)
  if (typeof value === 'number') return JSON.stringify(value)
  if (typeof value === 'string') return asciiEscape(JSON.stringify(value))
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort(compareCodePoints)
    return `{${keys.map(key => `${asciiEscape(JSON.stringify(key))}:${canonicalJson(value[key])}`).join(',')}}`
  }
  throw new TypeError(`canonicalJson: ${typeof value} is not a JSON value`)
}

function asciiEscape(json: string): string {
  // JSON.stringify leaves DEL and non-ASCII as is; Python's ensure_ascii escapes them (UTF-16 units, lowercase).
  return json.replace(/[\u007f-\uffff]/g, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
