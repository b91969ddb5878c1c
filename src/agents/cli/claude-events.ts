// Reads one Claude Code `stream-json` event into conversation records and stream state (runner.md §4.5 event
// table, §4.6 privacy filter); pure.
import * as z from 'zod'
import type { ConversationEntry } from '../agent.ts'
import { scrubPrivate } from './privacy-filter.ts'
import type { CliStreamState } from './stream-state.ts'

// Claude Code owns these formats: loose objects, only the fields we use are checked.
const InitSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  session_id: z.string(),
  model: z.string().optional(),
  mcp_servers: z.array(z.looseObject({ name: z.string(), status: z.string() })).optional(),
})
const MessageEventSchema = z.looseObject({
  type: z.enum(['assistant', 'user']),
  message: z.looseObject({ role: z.enum(['assistant', 'user']), content: z.unknown() }),
})
const ResultSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string().optional(),
  result: z.string().optional(),
  is_error: z.boolean().optional(),
  total_cost_usd: z.number().optional(),
  usage: z.record(z.string(), z.unknown()).optional(),
  errors: z.array(z.unknown()).optional(),
})
const ErrorEventSchema = z.looseObject({ type: z.enum(['error', 'turn.failed']) })

/** Updates `state` from one event and answers the records to write (possibly none). */
export function readClaudeEvent(event: Record<string, unknown>, state: CliStreamState): ConversationEntry[] {
  const init = InitSchema.safeParse(event)
  if (init.success) {
    // The init row lists tools, paths and settings; only the session and model are kept (§4.6), plus each MCP
    // server's name and status: without them a run whose server was still `pending` (no tools) cannot be explained.
    state.model = init.data.model ?? state.model
    const servers = init.data.mcp_servers?.map(({ name, status }) => ({ name, status }))
    if (servers !== undefined) state.mcpServers = servers
    return [{ type: 'session', session_id: init.data.session_id, model: init.data.model ?? null, ...(servers === undefined ? {} : { mcp_servers: servers }) }]
  }
  const message = MessageEventSchema.safeParse(event)
  if (message.success) {
    const content = scrubPrivate(message.data.message.content)
    if (content === undefined || (Array.isArray(content) && content.length === 0)) return []
    return [{ type: 'message', role: message.data.message.role, content }]
  }
  const result = ResultSchema.safeParse(event)
  if (result.success) {
    const { data } = result
    if (data.result !== undefined) state.finalAnswer = data.result
    if (data.usage !== undefined) state.usage = data.usage
    if (data.total_cost_usd !== undefined) state.costUsd = data.total_cost_usd
    if (data.is_error === true) state.agentErrors.push(data.result ?? (data.errors === undefined ? data.subtype ?? 'error result' : JSON.stringify(data.errors)))
    return eventRecord(event)
  }
  if (ErrorEventSchema.safeParse(event).success) {
    state.agentErrors.push(JSON.stringify(scrubPrivate(event)))
    return eventRecord(event)
  }
  return eventRecord(event)
}

function eventRecord(event: Record<string, unknown>): ConversationEntry[] {
  const kept = scrubPrivate(event)
  return kept === undefined ? [] : [{ type: 'event', event: kept }]
}
