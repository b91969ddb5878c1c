// The event readers against the CLIs' next versions: a Claude Code stream-json transcript and a Codex `exec --json`
// stream (built from the shapes the readers' tests and the fake CLI use: there is no recorded stream in the fixtures),
// read once as they are and once with unknown fields added to every event and to the envelopes the readers pick
// from (`message`, `item`, MCP server entries), plus events of unknown types. New CLI versions add such fields all
// the time (Claude Code 2.1.332's `result` gained `subagent_stats`, `result_index`, …); they must change nothing.
import { describe, expect, it } from 'vitest'
import { emptyStreamState, readClaudeEvent, readCodexEvent, type CliStreamState } from '../../../../src/agents/cli/index.ts'
import type { ConversationEntry } from '../../../../src/agents/index.ts'

type Event = Record<string, unknown>
type Reader = (event: Event, state: CliStreamState) => ConversationEntry[]

/** Fields no CLI sends today; values of every JSON kind, none a key or type the privacy filter acts on. */
const UNKNOWN: Event = { awb_future_text: 'added later', awb_future_number: 7, awb_future_flag: false, awb_future_null: null, awb_future_object: { nested: [1, { deep: 'x' }] } }

/** The event with `UNKNOWN` at the top and inside each envelope the readers pick fields from. */
function withUnknownFields(event: Event): Event {
  const out: Event = { ...event, ...UNKNOWN }
  for (const key of ['message', 'item', 'error'] as const) {
    const value = event[key]
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) out[key] = { ...value, ...UNKNOWN }
  }
  if (Array.isArray(event.mcp_servers)) out.mcp_servers = (event.mcp_servers as Event[]).map(server => ({ ...server, ...UNKNOWN }))
  return out
}

function readAll(read: Reader, events: readonly Event[]): { records: ConversationEntry[], state: CliStreamState } {
  const state = emptyStreamState()
  // Through JSON text, as the lines arrive from the CLI's stdout.
  const records = events.flatMap(event => read(JSON.parse(JSON.stringify(event)) as Event, state))
  return { records, state }
}

/**
 * Reads `events` plain and extended (unknown fields everywhere, `unknownEvents` inserted after the first event) and
 * checks: the same state (answer, usage, cost, model, errors, warnings, MCP servers), the same session and message
 * records, and `event` records, which keep the CLI's event verbatim by design, holding the extended event; each
 * unknown event adds exactly one `event` record of itself.
 */
function expectUnknownFieldsIgnored(read: Reader, events: readonly Event[], unknownEvents: readonly Event[]): { records: ConversationEntry[], state: CliStreamState } {
  const plain = readAll(read, events)
  const extended = readAll(read, [withUnknownFields(events[0]!), ...unknownEvents, ...events.slice(1).map(withUnknownFields)])
  expect(extended.state).toEqual(plain.state)
  const [first, ...rest] = plain.records.map(record => record.type === 'event' ? { ...record, event: withUnknownFields(record.event as Event) } : record)
  expect(extended.records).toEqual([first, ...unknownEvents.map(event => ({ type: 'event', event })), ...rest])
  return plain
}

/** A Claude Code run: init, hidden thinking, a tool call and its result, the answer, the success result. */
const CLAUDE_RUN: readonly Event[] = [
  { type: 'system', subtype: 'init', session_id: 'session-1', model: 'claude-x', tools: ['mcp__assembly__list_pages'], mcp_servers: [{ name: 'assembly', status: 'connected' }], cwd: '/ws', apiKeySource: 'none' },
  { type: 'assistant', message: { id: 'msg-0', role: 'assistant', content: [{ type: 'thinking', thinking: 'I should look at the scene first.', signature: 'sig-secret' }] }, session_id: 'session-1' },
  { type: 'assistant', message: { id: 'msg-1', role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'u1', name: 'mcp__assembly__list_pages', input: {} }] }, session_id: 'session-1' },
  { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: [{ type: 'text', text: '## Pages\n1: episode [selected]' }] }] }, session_id: 'session-1' },
  { type: 'assistant', message: { id: 'msg-9', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Done.\n{"status":"completed"}' }] }, session_id: 'session-1' },
  { type: 'result', subtype: 'success', is_error: false, result: 'Done.\n{"status":"completed"}', total_cost_usd: 0.0123, usage: { input_tokens: 1200, output_tokens: 340, service_tier: 'standard' }, session_id: 'session-1', num_turns: 4 },
]

/** A Claude Code run that ends in an error result (its errors listed, no result text). */
const CLAUDE_FAILED_RUN: readonly Event[] = [
  { type: 'system', subtype: 'init', session_id: 'session-2', model: 'claude-x', mcp_servers: [{ name: 'assembly', status: 'pending' }] },
  { type: 'result', subtype: 'error_during_execution', is_error: true, errors: ['API Error: 529 overloaded'], session_id: 'session-2' },
]

/** Events Claude Code does not send today: an unknown type, and an unknown subtype of the init event's type. */
const CLAUDE_UNKNOWN_EVENTS: readonly Event[] = [
  { type: 'awb_future_event', payload: { step: 1 } },
  { type: 'system', subtype: 'awb_future_notice', session_id: 'session-1', text: 'compacting' },
]

/** A Codex run: transport notices, hidden reasoning, an MCP call, two turns with usage, a to-do item. */
const CODEX_RUN: readonly Event[] = [
  { type: 'thread.started', thread_id: 'thread-1' },
  { type: 'turn.started' },
  { type: 'error', message: 'Reconnecting... 1/5 (unexpected status 404 Not Found: Unknown error, url: ws://127.0.0.1:1/v1/responses)' },
  { type: 'item.completed', item: { id: 'item-w', type: 'error', message: 'Falling back from WebSockets to HTTPS transport.' } },
  { type: 'item.completed', item: { id: 'item-0', type: 'reasoning', text: 'I should look at the scene first.' } },
  { type: 'item.started', item: { id: 'item-1', type: 'agent_message', text: 'partial' } },
  { type: 'item.completed', item: { id: 'item-1', type: 'agent_message', text: 'Looking.' } },
  { type: 'item.completed', item: { id: 'tool-1', type: 'mcp_tool_call', server: 'assembly', tool: 'execute_webmcp_tool', arguments: { toolName: 'get_scene', input: {} }, status: 'completed' } },
  { type: 'turn.completed', usage: { input_tokens: 1000, cached_input_tokens: 200, output_tokens: 300 } },
  { type: 'item.completed', item: { id: 'item-9', type: 'agent_message', text: 'Done.\n{"status":"completed"}' } },
  { type: 'item.completed', item: { id: 'item-t', type: 'todo_list', items: [{ text: 'check', completed: true }] } },
  { type: 'turn.completed', usage: { input_tokens: 200, cached_input_tokens: 0, output_tokens: 40 } },
]

/** A Codex run that fails: an error that is not a transport notice, then the failed turn. */
const CODEX_FAILED_RUN: readonly Event[] = [
  { type: 'thread.started', thread_id: 'thread-2' },
  { type: 'error', message: "You've hit your usage limit." },
  { type: 'turn.failed', error: { message: "You've hit your usage limit." } },
]

/** Events Codex does not send today: an unknown type, and a completed item of an unknown type. */
const CODEX_UNKNOWN_EVENTS: readonly Event[] = [
  { type: 'awb_future_event', payload: { step: 1 } },
  { type: 'item.completed', item: { id: 'item-f', type: 'awb_future_item', text: 'not an answer' } },
]

describe('unknown fields and event types in a CLI stream', () => {
  it('Claude Code stream-json: the same records and state; a run that ends in an error result too', () => {
    const { records, state } = expectUnknownFieldsIgnored(readClaudeEvent, CLAUDE_RUN, CLAUDE_UNKNOWN_EVENTS)
    // The baseline is the reading the readers' own tests pin down, so "the same" is not "the same and empty".
    expect(records.map(record => record.type)).toEqual(['session', 'message', 'message', 'message', 'event'])
    expect(records[0]).toEqual({ type: 'session', session_id: 'session-1', model: 'claude-x', mcp_servers: [{ name: 'assembly', status: 'connected' }] })
    expect(state).toMatchObject({ finalAnswer: 'Done.\n{"status":"completed"}', costUsd: 0.0123, model: 'claude-x', usage: { input_tokens: 1200 }, agentErrors: [], mcpServers: [{ name: 'assembly', status: 'connected' }] })
    const failed = expectUnknownFieldsIgnored(readClaudeEvent, CLAUDE_FAILED_RUN, CLAUDE_UNKNOWN_EVENTS)
    expect(failed.state).toMatchObject({ finalAnswer: null, agentErrors: ['["API Error: 529 overloaded"]'], mcpServers: [{ name: 'assembly', status: 'pending' }] })
  })

  it('Codex exec --json: the same records and state; a failed run too', () => {
    const { records, state } = expectUnknownFieldsIgnored(readCodexEvent, CODEX_RUN, CODEX_UNKNOWN_EVENTS)
    expect(records.map(record => record.type)).toEqual(['session', 'event', 'event', 'event', 'message', 'event', 'message', 'event', 'event'])
    expect(state).toMatchObject({ finalAnswer: 'Done.\n{"status":"completed"}', usage: { input_tokens: 1200, cached_input_tokens: 200, output_tokens: 340 }, agentErrors: [], warnings: [expect.stringMatching(/^Reconnecting\.\.\. 1\/5/) as unknown, 'Falling back from WebSockets to HTTPS transport.'] })
    const failed = expectUnknownFieldsIgnored(readCodexEvent, CODEX_FAILED_RUN, CODEX_UNKNOWN_EVENTS)
    expect(failed.state.agentErrors).toEqual(["You've hit your usage limit.", "You've hit your usage limit."])
  })
})
