// Event readers (runner.md §4.5 table), the privacy filter (§4.6) and quota text (§6, §13 item 4).
import { describe, expect, it } from 'vitest'
import { emptyStreamState, isQuotaExhausted, readClaudeEvent, readCodexEvent, scrubPrivate } from '../../../../src/agents/cli/index.ts'

describe('privacy filter', () => {
  it('drops reasoning blocks, system/developer roles, private channels and private keys at any depth', () => {
    const scrubbed = scrubPrivate({
      keep: 1,
      signature: 's', encrypted_content: 'e', system_prompt: 'p', instructions: 'i',
      content: [
        { type: 'thinking', thinking: 't', signature: 'x' },
        { type: 'redacted_thinking', data: 'r' },
        { type: 'reasoning', text: 'why' },
        { type: 'text', text: 'visible', signature: 'y' },
        { role: 'system', content: 'sys' },
        { role: 'developer', content: 'dev' },
        { channel: 'analysis', text: 'a' }, { channel: 'justify', text: 'j' }, { channel: 'confidence', text: 'c' },
        { channel: 'final', text: 'f' },
      ],
      nested: { deeper: [{ type: 'reasoning' }, 'ok'], thinking: { type: 'thinking' } },
    })
    expect(scrubbed).toEqual({ keep: 1, content: [{ type: 'text', text: 'visible' }, { channel: 'final', text: 'f' }], nested: { deeper: ['ok'] } })
    expect(scrubPrivate({ type: 'reasoning', text: 'x' })).toBeUndefined()
  })
})

describe('Codex events', () => {
  it('keeps agent messages (last = final answer), sums usage, drops reasoning and mcp_tool_call items', () => {
    const state = emptyStreamState()
    const records = [
      { type: 'thread.started', thread_id: 't-1' },
      { type: 'turn.started' },
      { type: 'item.completed', item: { type: 'reasoning', text: 'secret plan' } },
      { type: 'item.started', item: { type: 'agent_message', text: 'partial' } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'first' } },
      { type: 'item.completed', item: { type: 'mcp_tool_call', server: 'assembly', tool: 'x' } },
      { type: 'turn.completed', usage: { input_tokens: 10, output_tokens: 2 } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'final' } },
      { type: 'turn.completed', usage: { input_tokens: 5, output_tokens: 1 } },
      { type: 'item.completed', item: { type: 'todo_list', items: [] } },
    ].flatMap(event => readCodexEvent(event, state))
    expect(records).toEqual([
      { type: 'session', session_id: 't-1', model: null },
      { type: 'event', event: { type: 'turn.started' } },
      { type: 'message', role: 'assistant', content: 'first' },
      { type: 'event', event: { type: 'turn.completed', usage: { input_tokens: 10, output_tokens: 2 } } },
      { type: 'message', role: 'assistant', content: 'final' },
      { type: 'event', event: { type: 'turn.completed', usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'event', event: { type: 'item.completed', item: { type: 'todo_list', items: [] } } },
    ])
    expect(state.finalAnswer).toBe('final')
    expect(state.usage).toEqual({ input_tokens: 15, output_tokens: 3 })
    expect(state.costUsd).toBeNull()
    expect(state.agentErrors).toEqual([])
  })

  it('error and turn.failed are agent errors; Reconnecting notices and error items are warnings', () => {
    const state = emptyStreamState()
    readCodexEvent({ type: 'error', message: 'stream disconnected' }, state)
    readCodexEvent({ type: 'error', message: 'Reconnecting... 2/5 (unexpected status 404 Not Found)' }, state)
    readCodexEvent({ type: 'item.completed', item: { id: 'i', type: 'error', message: 'Falling back from WebSockets to HTTPS transport.' } }, state)
    readCodexEvent({ type: 'turn.failed', error: { message: 'rate limited' } }, state)
    expect(state.agentErrors).toEqual(['stream disconnected', 'rate limited'])
    expect(state.warnings).toEqual(['Reconnecting... 2/5 (unexpected status 404 Not Found)', 'Falling back from WebSockets to HTTPS transport.'])
  })
})

describe('Claude events', () => {
  it('reduces init to session + model, filters messages, takes answer, usage and cost from result', () => {
    const state = emptyStreamState()
    const records = [
      { type: 'system', subtype: 'init', session_id: 's-1', model: 'claude-x', tools: ['Bash'], cwd: '/ws', apiKeySource: 'env' },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }] } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'u1', name: 'mcp__assembly__list_pages', input: {} }] } },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: 'pages' }] } },
      { type: 'result', subtype: 'success', is_error: false, result: '{"status":"partial"}', total_cost_usd: 0.5, usage: { input_tokens: 3, server_tool_use: { web_search_requests: 0 } } },
    ].flatMap(event => readClaudeEvent(event, state))
    expect(records[0]).toEqual({ type: 'session', session_id: 's-1', model: 'claude-x' })
    expect(records[1]).toEqual({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'u1', name: 'mcp__assembly__list_pages', input: {} }] })
    expect(records[2]).toMatchObject({ type: 'message', role: 'user' })
    expect(records[3]).toMatchObject({ type: 'event', event: { type: 'result', total_cost_usd: 0.5 } })
    expect(records).toHaveLength(4)
    expect(JSON.stringify(records)).not.toMatch(/hmm|sig|apiKeySource|Bash/)
    expect(state).toMatchObject({ finalAnswer: '{"status":"partial"}', costUsd: 0.5, model: 'claude-x', usage: { input_tokens: 3, server_tool_use: { web_search_requests: 0 } }, agentErrors: [] })
  })

  it('an is_error result is an agent error', () => {
    const state = emptyStreamState()
    readClaudeEvent({ type: 'result', subtype: 'error_max_turns', is_error: true }, state)
    expect(state.agentErrors).toEqual(['error_max_turns'])
  })
})

describe('quota text', () => {
  it('recognises the reference patterns case-insensitively and nothing else', () => {
    for (const text of ["You've hit your usage limit", 'USAGE_LIMIT_REACHED', 'Quota exceeded for project', 'insufficient_quota', 'weekly limit reached', '5-hour limit', 'five hour limit', 'Credit balance exhausted', 'credits depleted']) {
      expect(isQuotaExhausted(text), text).toBe(true)
    }
    for (const text of ['rate limited, retry in 2s', 'context window exceeded', 'the agent exited with code 3']) expect(isQuotaExhausted(text), text).toBe(false)
  })
})
