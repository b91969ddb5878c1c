import { describe, expect, it } from 'vitest'
import type { AgentRunContext, AgentToolInfo, ConversationEntry } from '../../../../src/agents/index.ts'
import { createApiAgent, type ModelRequest, type ModelTransport } from '../../../../src/agents/api/index.ts'
import { anthropicText, openAiText, openAiToolCall } from '../../../helpers/fake-model-server.ts'

const TOOLS: AgentToolInfo[] = [
  { name: 'get_scene', description: 'Read the scene.', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
  { name: 'capture_scene', description: 'Capture.', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
]

/** An in-process transport answering `replies` in order and keeping a copy of every request. */
function fakeTransport(replies: unknown[]) {
  const requests: ModelRequest[] = []
  const transport: ModelTransport = {
    send: async (request) => {
      requests.push(structuredClone(request))
      if (replies.length === 0) throw new Error('no reply left')
      return replies.shift()
    },
  }
  return { transport, requests }
}

function context(answers: Record<string, string>, signal = new AbortController().signal) {
  const records: ConversationEntry[] = []
  const calls: [string, unknown][] = []
  const ctx: AgentRunContext = {
    prompt: 'Assemble.',
    pages: [],
    signal,
    tools: { list: () => TOOLS, call: async (name, input) => { calls.push([name, input]); return answers[name] ?? '{}' } },
    record: async (entry) => { records.push(entry) },
  }
  return { ctx, records, calls }
}

type Json = Record<string, unknown>
const messages = (request: ModelRequest) => request.body.messages as Json[]

describe('createApiAgent', () => {
  it('is named <provider>:<model> and sends a plain-string first message when there are no pages', async () => {
    for (const provider of ['openai', 'anthropic'] as const) {
      const { transport, requests } = fakeTransport([provider === 'openai' ? openAiText(1, 'ok') : anthropicText(1, 'ok')])
      const agent = createApiAgent({ provider, model: 'm1', transport })
      expect(agent.name).toBe(`${provider}:m1`)
      await agent.run(context({}).ctx)
      expect(messages(requests[0]!)[0]).toEqual({ role: 'user', content: 'Assemble.' })
    }
  })

  it('sends no tools field when the page registered no tools (OpenAI rejects an empty list)', async () => {
    for (const provider of ['openai', 'anthropic'] as const) {
      const { transport, requests } = fakeTransport([provider === 'openai' ? openAiText(1, 'ok') : anthropicText(1, 'ok')])
      const { ctx } = context({})
      await createApiAgent({ provider, model: 'm', transport }).run({ ...ctx, tools: { list: () => [], call: ctx.tools.call } })
      expect(requests[0]!.body).not.toHaveProperty('tools')
    }
  })

  it('answers unparseable arguments and unknown tools with an error envelope the model reads, without calling the page', async () => {
    const { transport, requests } = fakeTransport([
      openAiToolCall(1, { name: 'get_scene', arguments: {} }, false, '{"broken'),
      openAiToolCall(2, { name: 'delete_everything', arguments: {} }),
      openAiText(3, 'gave up'),
    ])
    const { ctx, records, calls } = context({})
    const result = await createApiAgent({ provider: 'openai', model: 'm', transport }).run(ctx)
    expect(calls).toEqual([])
    expect(records[1]).toEqual({ type: 'tool_call', id: 'call_1', name: 'get_scene', arguments: '{"broken' })
    const first = messages(requests[1]!).at(-1)!
    expect(first.role).toBe('tool')
    expect(JSON.parse(String(first.content))).toMatchObject({ code: 'invalid_argument', error: expect.stringContaining('Invalid get_scene arguments') })
    const second = JSON.parse(String(messages(requests[2]!).at(-1)!.content))
    expect(second).toEqual({ error: 'Unknown tool: delete_everything. Available tools: get_scene, capture_scene.', code: 'invalid_argument' })
    expect(result.finalAnswer).toBe('gave up')
  })

  it('runs several tool calls of one turn in order and sends all their images in one user message after the tool messages', async () => {
    const capture = (data: string) => JSON.stringify({ content: [{ type: 'image', mimeType: 'image/png', data }], camera: {} })
    const twoCalls = {
      model: 'g', usage: { prompt_tokens: 1, completion_tokens: 1 },
      choices: [{ message: { content: null, tool_calls: [
        { id: 'a', type: 'function', function: { name: 'capture_scene', arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 'get_scene', arguments: '' } },
      ] } }],
    }
    const answers: Record<string, string> = { capture_scene: capture('QUJD'), get_scene: capture('REVG') }
    const { transport, requests } = fakeTransport([twoCalls, openAiText(2, 'done')])
    const { ctx, calls } = context(answers)
    await createApiAgent({ provider: 'openai', model: 'm', transport }).run(ctx)
    expect(calls).toEqual([['capture_scene', {}], ['get_scene', {}]])
    const history = messages(requests[1]!)
    expect(history.slice(1).map(m => m.role)).toEqual(['assistant', 'tool', 'tool', 'user'])
    expect(history[1]).toEqual({ role: 'assistant', content: null, tool_calls: twoCalls.choices[0]!.message.tool_calls })
    expect(history[4]!.content).toEqual([
      { type: 'text', text: 'Image returned by capture_scene (tool call a):' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,QUJD' } },
      { type: 'text', text: 'Image returned by get_scene (tool call b):' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,REVG' } },
    ])
  })

  it('keeps the last text as the final answer when the last response has none; usage null when never reported', async () => {
    const { transport } = fakeTransport([
      { choices: [{ message: { content: 'my answer {"status":"partial"}', tool_calls: [{ id: 'x', function: { name: 'get_scene', arguments: '{}' } }] } }] },
      { choices: [{ message: { content: '' } }] },
    ])
    const result = await createApiAgent({ provider: 'openai', model: 'spec-model', transport }).run(context({}).ctx)
    expect(result).toEqual({ finalAnswer: 'my answer {"status":"partial"}', usage: null, costUsd: null, model: 'spec-model' })
  })

  it('leaves the cost unknown when only some responses reported it', async () => {
    const priced = openAiToolCall(1, { name: 'get_scene', arguments: {} }, true)
    const { transport } = fakeTransport([priced, openAiText(2, 'done', false)])
    const result = await createApiAgent({ provider: 'openai', model: 'm', transport }).run(context({}).ctx)
    expect(result.costUsd).toBeNull()
    expect(result.usage).toEqual({ input_tokens: 300, output_tokens: 30, cached_input_tokens: 3 })
  })

  it('does not call the model once the time limit has fired', async () => {
    const controller = new AbortController()
    controller.abort(new Error('time limit of 5 s reached'))
    const { transport, requests } = fakeTransport([openAiText(1, 'late')])
    await expect(createApiAgent({ provider: 'anthropic', model: 'm', transport }).run(context({}, controller.signal).ctx)).rejects.toMatchObject({ code: 'API_AGENT_ABORTED', message: expect.stringContaining('time limit of 5 s reached') })
    expect(requests).toHaveLength(0)
  })

  it('rejects an Anthropic tool_use block without an id as a malformed response', async () => {
    const { transport } = fakeTransport([{ model: 'c', content: [{ type: 'tool_use', name: 'get_scene', input: {} }] }])
    await expect(createApiAgent({ provider: 'anthropic', model: 'm', transport }).run(context({}).ctx)).rejects.toMatchObject({ code: 'API_AGENT_MALFORMED_RESPONSE', message: expect.stringContaining('ANTHROPIC_BASE_URL') })
  })
})
