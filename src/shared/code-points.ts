// Plain code-point order of strings, as the reference sorts ids, keys and archive members (Python's `sorted`): "10"
// before "2", never locale-aware. Page-safe (the episode codec runs in the page); the one definition.

/**
 * Compares two strings by Unicode code point, like Python's `str` ordering. Never `localeCompare`, and not
 * plain `<` either: `<` compares UTF-16 code units, which orders U+E000…U+FFFF after astral characters.
 */
export function compareCodePoints(a: string, b: string): number {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i) ?? 0
    const cb = b.codePointAt(j) ?? 0
    if (ca !== cb) return ca < cb ? -1 : 1
    i += ca > 0xffff ? 2 : 1
    j += cb > 0xffff ? 2 : 1
  }
  const restA = a.length - i
  const restB = b.length - j
  return restA === restB ? 0 : restA < restB ? -1 : 1
}
