// Calls scripts (`<block>/<slug>.calls.jsonl`): one `{"name", "arguments"}` tool call per line. Parsed by the
// harness (page) and `awb env` (Node); the replay agent in its realm gets the parsed calls.
import * as z from 'zod'

/** One line of a calls script: `{"name": …, "arguments": {…}}`. */
export const ScriptCallSchema = /* @__PURE__ */ z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
})
/** A parsed call and its 1-based line in the script. */
export type ScriptCall = z.infer<typeof ScriptCallSchema> & { line: number }

/** Parses a calls JSONL text; blank lines are skipped; a bad line is an error naming its line number. */
export function parseCallsScript(text: string, source: string): ScriptCall[] {
  const calls: ScriptCall[] = []
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new Error(`${source} line ${index + 1}: not valid JSON (${error instanceof Error ? error.message : String(error)})`)
    }
    const parsed = ScriptCallSchema.safeParse(value)
    if (!parsed.success) throw new Error(`${source} line ${index + 1}: expected {"name": string, "arguments": object} (${parsed.error.issues[0]?.message ?? 'invalid'})`)
    calls.push({ ...parsed.data, line: index + 1 })
  })
  return calls
}
