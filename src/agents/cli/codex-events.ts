// Reads one Codex `exec --json` event into conversation records and stream state (runner.md §4.5 event table,
// §4.6 privacy filter); pure.
import * as z from 'zod'
import type { ConversationEntry } from '../agent.ts'
import { scrubPrivate } from './privacy-filter.ts'
import type { CliStreamState } from './stream-state.ts'

// Codex owns these formats: loose objects, only the fields we use are checked.
const ThreadStartedSchema = z.looseObject({ type: z.literal('thread.started'), thread_id: z.string() })
const ItemSchema = z.looseObject({ type: z.string(), text: z.string().optional(), message: z.unknown().optional() })
const ItemEventSchema = z.looseObject({ type: z.enum(['item.started', 'item.updated', 'item.completed']), item: ItemSchema })
const TurnCompletedSchema = z.looseObject({ type: z.literal('turn.completed'), usage: z.record(z.string(), z.unknown()).optional() })
const TurnFailedSchema = z.looseObject({ type: z.literal('turn.failed'), error: z.looseObject({ message: z.string() }).optional() })
const ErrorEventSchema = z.looseObject({ type: z.literal('error'), message: z.string().optional() })

/**
 * Codex's transport retries, sent as `error` events (`Reconnecting... 2/5 (…)`) while it falls back from WebSocket
 * to HTTPS. They fail nothing: a turn that then completes is a success, one that does not ends in `turn.failed`.
 */
const TRANSPORT_NOTICE = /^Reconnecting\b/i

/** Item types never written: hidden reasoning, and MCP calls the relay already records. */
const DROPPED_ITEMS: ReadonlySet<string> = new Set(['reasoning', 'mcp_tool_call'])

/** Updates `state` from one event and answers the records to write (possibly none). */
export function readCodexEvent(event: Record<string, unknown>, state: CliStreamState): ConversationEntry[] {
  const started = ThreadStartedSchema.safeParse(event)
  if (started.success) return [{ type: 'session', session_id: started.data.thread_id, model: state.model }]
  const itemEvent = ItemEventSchema.safeParse(event)
  if (itemEvent.success) {
    const { item } = itemEvent.data
    // Started/updated items are partial copies of the completed one; only completed items are kept.
    if (itemEvent.data.type !== 'item.completed' || DROPPED_ITEMS.has(item.type)) return []
    // `error` items are notices (unknown model metadata, the WebSocket fallback); a real failure is `turn.failed`.
    if (item.type === 'error') {
      const message = typeof item.message === 'string' ? item.message : 'error item'
      state.warnings.push(message)
      return eventRecord(event)
    }
    if (item.type === 'agent_message' && item.text !== undefined) {
      state.finalAnswer = item.text
      return [{ type: 'message', role: 'assistant', content: item.text }]
    }
    return eventRecord(event)
  }
  const turn = TurnCompletedSchema.safeParse(event)
  if (turn.success) {
    if (turn.data.usage !== undefined) state.usage = addUsage(state.usage, turn.data.usage)
    return eventRecord(event)
  }
  const failed = TurnFailedSchema.safeParse(event)
  if (failed.success) {
    state.agentErrors.push(failed.data.error?.message ?? 'turn.failed')
    return eventRecord(event)
  }
  const error = ErrorEventSchema.safeParse(event)
  if (error.success) {
    const message = error.data.message ?? 'error'
    if (TRANSPORT_NOTICE.test(message)) state.warnings.push(message)
    else state.agentErrors.push(message)
    return eventRecord(event)
  }
  return eventRecord(event)
}

/** An unknown or bookkeeping event kept as an `event` record, after the privacy filter. */
function eventRecord(event: Record<string, unknown>): ConversationEntry[] {
  const kept = scrubPrivate(event)
  return kept === undefined ? [] : [{ type: 'event', event: kept }]
}

/** Sums numeric fields over turns (one `exec` may run several); other fields keep their last value. */
function addUsage(total: Record<string, unknown> | null, usage: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...total }
  for (const [key, value] of Object.entries(usage)) {
    const previous = out[key]
    out[key] = typeof value === 'number' && typeof previous === 'number' ? previous + value : value
  }
  return out
}
