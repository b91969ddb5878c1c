// The replay agent: runs a recorded tool-call script through the page's registered tools, in order.
import * as z from 'zod'
import type { AgentResult, PageAgent } from './agent.ts'

/** One line of a calls script: `{"name": …, "arguments": {…}}`. */
export const ScriptCallSchema = z.strictObject({
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

/**
 * Replays `calls` as the agent, recording each call and result in the conversation. Tool errors are results,
 * not failures (the script goes on, as a model would). Stops between calls when the signal aborts.
 */
export function createReplayAgent(calls: readonly ScriptCall[]): PageAgent {
  return {
    name: 'replay',
    async run(context): Promise<AgentResult> {
      let done = 0
      for (const [index, call] of calls.entries()) {
        context.signal.throwIfAborted()
        const id = `replay-${index}`
        await context.record({ type: 'tool_call', id, name: call.name, arguments: call.arguments })
        const result = await context.tools.call(call.name, call.arguments)
        await context.record({ type: 'tool_result', id, result })
        done++
      }
      const finalAnswer = JSON.stringify({
        status: 'completed',
        summary: `Replayed ${done} recorded tool calls.`,
        checked_connections: [],
        uncertainties: ['A replay does not inspect the scene; it repeats a recorded script.'],
      })
      await context.record({ type: 'message', role: 'assistant', content: finalAnswer })
      return { finalAnswer, usage: null, costUsd: null, model: null }
    },
  }
}

/** The idle agent: does nothing and says so; the initial scene is scored (a floor for any agent). */
export function createIdleAgent(): PageAgent {
  return {
    name: 'idle',
    async run(context): Promise<AgentResult> {
      const finalAnswer = JSON.stringify({ status: 'unable', summary: 'The idle agent takes no action.', checked_connections: [], uncertainties: [] })
      await context.record({ type: 'message', role: 'assistant', content: finalAnswer })
      return { finalAnswer, usage: null, costUsd: null, model: null }
    },
  }
}
