// Shortens real tool answers for the tool reference, deterministically: rounds numbers, cuts long lists of objects,
// elides image bytes. It changes no value's type or key order and runs nothing.

/** Significant digits kept for every non-integer number. */
export const SIGNIFICANT_DIGITS = 6
/** A list of objects longer than this is cut... */
export const MAX_LISTED_OBJECTS = 3
/** ...to its first this many items, then one string saying how many were left out. */
export const KEPT_OBJECTS = 2
/** Stands for the base64 bytes of an image (`data` of an `{type: "image"}` node). */
export const ELIDED_IMAGE = '<base64 PNG, elided>'

/** The rules above as one sentence, for the reference's header. */
export const ABBREVIATION_RULES = `non-integer numbers are rounded to ${SIGNIFICANT_DIGITS} significant digits, a list of more than `
  + `${MAX_LISTED_OBJECTS} objects keeps its first ${KEPT_OBJECTS} followed by a string "… N more", and image bytes read "${ELIDED_IMAGE}"`

/** `value` (parsed JSON) with the rules above applied at every depth. */
export function abbreviate(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Number(value.toPrecision(SIGNIFICANT_DIGITS))
  if (Array.isArray(value)) {
    const items = value.map(abbreviate)
    const isObjectList = items.length > MAX_LISTED_OBJECTS && items.every(item => item !== null && typeof item === 'object')
    return isObjectList ? [...items.slice(0, KEPT_OBJECTS), `… ${items.length - KEPT_OBJECTS} more`] : items
  }
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  const isImage = record.type === 'image' && typeof record.data === 'string'
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(record)) out[key] = isImage && key === 'data' ? ELIDED_IMAGE : abbreviate(item)
  return out
}

/** A tool's JSON-string answer, abbreviated and printed back as one line of JSON (the way agents receive it). */
export function abbreviateJsonText(text: string): string {
  return JSON.stringify(abbreviate(JSON.parse(text)))
}

/** `value` rounded like the answers (for numbers the generator computes itself). */
export function roundForDoc(values: readonly number[]): number[] {
  return values.map(value => Number(value.toPrecision(SIGNIFICANT_DIGITS)))
}
