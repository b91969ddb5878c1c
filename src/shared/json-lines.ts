// JSON Lines text into values, one per non-blank line with its 1-based line number; no schema, no I/O. Page-safe
// (episodes and calls scripts are parsed in the page). The one splitter: each caller decides what a bad line means
// (an episode error, a usage error, a torn line to skip).

/** One non-blank line of a JSONL text: its JSON value, or why it is not JSON. */
export type JsonLine =
  | { line: number; value: unknown; error?: undefined }
  | { line: number; value?: undefined; error: Error }

/**
 * The non-blank lines of `text`, in order, each parsed. Lines end at `\n` (a `\r` before it is JSON whitespace); a
 * line of whitespace only is skipped, so a final newline or a blank line between records is not an error. Lazy: a
 * caller that stops at its first bad line parses nothing after it.
 */
export function* splitJsonLines(text: string): Generator<JsonLine> {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '') continue
    let parsed: JsonLine
    try {
      parsed = { line: i + 1, value: JSON.parse(line) as unknown }
    } catch (error) {
      parsed = { line: i + 1, error: error instanceof Error ? error : new Error(String(error)) }
    }
    yield parsed
  }
}
