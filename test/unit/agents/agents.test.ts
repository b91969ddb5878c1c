import { describe, expect, it } from 'vitest'
import { createIdleAgent, createReplayAgent, parseAgentOutcome, parseCallsScript, replayCallId, type AgentRunContext, type ConversationEntry } from '../../../src/agents/index.ts'

function context(answers: Record<string, string>, signal = new AbortController().signal) {
  const records: ConversationEntry[] = []
  const calls: [string, unknown][] = []
  const ctx: AgentRunContext = {
    prompt: 'Assemble.',
    pages: [],
    signal,
    tools: {
      list: () => [],
      call: async (name, input) => { calls.push([name, input]); return answers[name] ?? '{"error":"Unknown","code":"invalid_argument"}' },
    },
    record: async (entry) => { records.push(entry) },
  }
  return { ctx, records, calls }
}

describe('parseAgentOutcome', () => {
  it('takes the first JSON object with a known status, skipping prose and other objects', () => {
    const text = 'Done {not json} then {"note": 1} and finally {"status": "partial", "summary": "a {brace} in a string", "uncertainties": ["x"]} {"status": "completed"}'
    expect(parseAgentOutcome(text)).toEqual({ status: 'partial', summary: 'a {brace} in a string', uncertainties: ['x'] })
  })

  it('returns null without a qualifying object', () => {
    expect(parseAgentOutcome(null)).toBeNull()
    expect(parseAgentOutcome('{"status": "done"}')).toBeNull()
    expect(parseAgentOutcome('{"status": "completed"')).toBeNull()
  })
})

describe('parseCallsScript', () => {
  it('parses JSONL with line numbers and defaults arguments to {}', () => {
    expect(parseCallsScript('{"name":"get_scene"}\n\n{"name":"set_object_pose","arguments":{"id":"part-0001","position":[0,0,1]}}\n', 'demo')).toEqual([
      { name: 'get_scene', arguments: {}, line: 1 },
      { name: 'set_object_pose', arguments: { id: 'part-0001', position: [0, 0, 1] }, line: 3 },
    ])
  })

  it('names the line of a broken call', () => {
    expect(() => parseCallsScript('{"name":"a"}\n{"nme":"b"}', 'demo.jsonl')).toThrow(/demo\.jsonl line 2: expected \{"name": string/)
    expect(() => parseCallsScript('{', 'demo.jsonl')).toThrow(/demo\.jsonl line 1: not valid JSON/)
  })
})

describe('built-in agents', () => {
  it('replay runs every call in order through the tools, recording calls and results, and declares completion', async () => {
    const { ctx, records, calls } = context({ get_scene: '{"name":"x"}', set_object_pose: '{"status":"completed","physics":"disabled","index":1}' })
    const script = parseCallsScript('{"name":"get_scene"}\n{"name":"set_object_pose","arguments":{"id":"part-0001","position":[1,2,3]}}\n{"name":"nope"}', 'demo')
    const result = await createReplayAgent(script).run(ctx)
    expect(calls).toEqual([['get_scene', {}], ['set_object_pose', { id: 'part-0001', position: [1, 2, 3] }], ['nope', {}]])
    expect(records.map(r => r.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'message'])
    expect(records[3]).toEqual({ type: 'tool_result', id: 'replay-1', result: '{"status":"completed","physics":"disabled","index":1}' })
    expect(parseAgentOutcome(result.finalAnswer)).toMatchObject({ status: 'completed', summary: 'Replayed 3 recorded tool calls.' })
  })

  it('replay leaves the calls\' records to its harness when asked (in its realm), with the same ids', async () => {
    const { ctx, records, calls } = context({ get_scene: '{"name":"x"}' })
    const result = await createReplayAgent(parseCallsScript('{"name":"get_scene"}\n{"name":"get_scene"}', 'demo'), { recordCalls: false }).run(ctx)
    expect(calls).toHaveLength(2)
    expect(records.map(r => r.type)).toEqual(['message'])
    expect(replayCallId(1)).toBe('replay-1')
    expect(parseAgentOutcome(result.finalAnswer)).toMatchObject({ summary: 'Replayed 2 recorded tool calls.' })
  })

  it('replay stops when the time limit aborts it', async () => {
    const controller = new AbortController()
    controller.abort(new Error('time limit'))
    const { ctx, calls } = context({}, controller.signal)
    await expect(createReplayAgent(parseCallsScript('{"name":"get_scene"}', 'demo')).run(ctx)).rejects.toThrow('time limit')
    expect(calls).toEqual([])
  })

  it('idle calls nothing and declares it was unable', async () => {
    const { ctx, calls } = context({})
    const result = await createIdleAgent().run(ctx)
    expect(calls).toEqual([])
    expect(parseAgentOutcome(result.finalAnswer)?.status).toBe('unable')
  })
})
