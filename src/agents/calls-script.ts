// Calls scripts (`<block>/<slug>.calls.jsonl`): one `{"name", "arguments"}` tool call per line. Parsed by the
// harness (page) and `awb env` (Node); the replay agent in its realm gets the parsed calls.
import * as z from 'zod'
import { splitJsonLines } from '../shared/json-lines.ts'

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
  for (const { line, value, error } of splitJsonLines(text)) {
    if (error !== undefined) throw new Error(`${source} line ${line}: not valid JSON (${error.message})`)
    const parsed = ScriptCallSchema.safeParse(value)
    if (!parsed.success) throw new Error(`${source} line ${line}: expected {"name": string, "arguments": object} (${parsed.error.issues[0]?.message ?? 'invalid'})`)
    calls.push({ ...parsed.data, line })
  }
  return calls
}
