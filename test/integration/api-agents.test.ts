import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseAgentOutcome, type AgentRunContext, type ConversationEntry, type ReferencePage } from '../../src/agents/index.ts'
import { ApiAgentError, createApiAgent, type ModelTransport } from '../../src/agents/api/index.ts'
import { LlmError, modelRequest } from '../../src/llm/index.ts'
import { loadMujoco, WorldRuntime, type SceneRenderer } from '../../src/world/index.ts'
import { buildSetupEpisode, tinyPng } from '../helpers/episode-fixture.ts'
import { SCRIPTED_FINAL_ANSWER, SCRIPTED_POSE, scriptedAssemblyConversation, startFakeModelServer, type FakeModelServer, type ReceivedRequest } from '../helpers/fake-model-server.ts'
import { vitestCli } from '../helpers/vitest-cli.ts'

const OPENAI_KEY = 'sk-test-openai-key-123'
const ANTHROPIC_KEY = 'sk-ant-test-key-456'
const PAGE: ReferencePage = { page: 1, mimeType: 'image/png', bytes: tinyPng(7) }
const CAPTURE_PNG = tinyPng(99)

let server: FakeModelServer
let runtime: WorldRuntime

beforeEach(async () => {
  server = await startFakeModelServer()
  const renderer: SceneRenderer = { name: 'fake-renderer/test', capture: async () => CAPTURE_PNG, dispose() {} }
  runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode: buildSetupEpisode(), renderer })
})

afterEach(async () => {
  runtime.dispose()
  await server.close()
})

function transport(): ModelTransport {
  const env = { OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: ANTHROPIC_KEY }
  return { send: (request, options) => modelRequest(request, { env, signal: options?.signal, retryBaseDelayMs: 1 }) }
}

function context(signal = new AbortController().signal): { ctx: AgentRunContext; records: ConversationEntry[] } {
  const records: ConversationEntry[] = []
  const ctx: AgentRunContext = {
    prompt: 'Assemble the parts.',
    pages: [PAGE],
    signal,
    tools: {
      list: () => runtime.enabledToolDefinitions(),
      call: (name, input) => runtime.callTool(name, input, { signal }),
    },
    record: async (entry) => { records.push(entry) },
  }
  return { ctx, records }
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

type Json = Record<string, unknown>
const messagesOf = (request: ReceivedRequest) => request.body.messages as Json[]

function expectPartMoved(): void {
  const state = runtime.readState()
  // Integration state = [time, qpos…]; part-0002 is the second free body: qpos 7…13.
  expect([...state.subarray(8, 11)]).toEqual(SCRIPTED_POSE.position)
  for (const [i, q] of SCRIPTED_POSE.quaternion.entries()) expect(state[11 + i]).toBeCloseTo(q, 12)
  expect(runtime.exportEpisode().calls.map(call => call.name)).toEqual(['get_scene', 'set_object_pose', 'capture_scene'])
}

describe('openai:<model> against an OpenAI-compatible server', () => {
  it('runs the scripted conversation: tools as functions, tool results back, captures as image inputs, usage summed', async () => {
    server.script('openai', scriptedAssemblyConversation('openai'))
    const { ctx, records } = context()
    const result = await createApiAgent({ provider: 'openai', model: 'fake-gpt-model', maxOutputTokens: 1234, transport: transport() }).run(ctx)

    expect(result).toEqual({ finalAnswer: SCRIPTED_FINAL_ANSWER, usage: { input_tokens: 1000, output_tokens: 100, cached_input_tokens: 10 }, costUsd: null, model: 'fake-gpt' })
    expect(parseAgentOutcome(result.finalAnswer)).toMatchObject({ status: 'completed' })
    expectPartMoved()

    expect(server.requests).toHaveLength(4)
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/chat/completions')
      expect(request.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`)
      expect(request.body).toMatchObject({ model: 'fake-gpt-model', max_completion_tokens: 1234 })
    }
    const [first, second, , fourth] = server.requests as [ReceivedRequest, ReceivedRequest, ReceivedRequest, ReceivedRequest]
    const definitions = runtime.enabledToolDefinitions()
    expect(first.body.tools).toEqual(definitions.map(d => ({ type: 'function', function: { name: d.name, description: d.description, parameters: d.inputSchema } })))
    expect(first.body.tools).toHaveLength(12)
    expect(messagesOf(first)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Assemble the parts.' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${base64(PAGE.bytes)}` } }] }])

    const afterScene = messagesOf(second)
    expect(afterScene[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_scene', arguments: '{}' } }] })
    const sceneMessage = afterScene[2]!
    expect(sceneMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
    expect(JSON.parse(String(sceneMessage.content))).toHaveProperty('objects')

    const last = messagesOf(fourth)
    const captureTool = last.at(-2)!
    expect(captureTool).toMatchObject({ role: 'tool', tool_call_id: 'call_3' })
    expect(String(captureTool.content)).not.toContain(base64(CAPTURE_PNG))
    expect(JSON.parse(String(captureTool.content)).content[0]).toEqual({ type: 'image', mimeType: 'image/png', attached: 'the user message after the tool results' })
    expect(last.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Image returned by capture_scene (tool call call_3):' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${base64(CAPTURE_PNG)}` } }],
    })

    expect(records.map(r => r.type)).toEqual([
      'message', 'tool_call', 'tool_result', 'message', 'tool_call', 'tool_result', 'message', 'tool_call', 'tool_result', 'message', 'message',
    ])
    expect(records[4]).toEqual({ type: 'tool_call', id: 'call_2', name: 'set_object_pose', arguments: SCRIPTED_POSE })
    expect(records[5]).toEqual({ type: 'tool_result', id: 'call_2', result: '{"status":"completed","physics":"disabled","index":1}' })
    expect(String((records[8] as { result: string }).result)).toContain(base64(CAPTURE_PNG))
    expect(records[9]).toEqual({ type: 'message', role: 'user', content: [{ type: 'text', text: 'Image returned by capture_scene (tool call call_3):' }, { type: 'image', mimeType: 'image/png', tool_call_id: 'call_3' }] })
    expect(records.at(-1)).toEqual({ type: 'message', role: 'assistant', content: SCRIPTED_FINAL_ANSWER })
  })

  it('reports cost only when every response reported it', async () => {
    server.script('openai', scriptedAssemblyConversation('openai', { withCost: true }))
    const result = await createApiAgent({ provider: 'openai', model: 'm', transport: transport() }).run(context().ctx)
    expect(result.costUsd).toBeCloseTo(0.01, 12)
  })
})

describe('anthropic:<model> against a Messages server', () => {
  it('runs the scripted conversation: input_schema tools, tool_result blocks with base64 images, thinking kept in history only', async () => {
    server.script('anthropic', scriptedAssemblyConversation('anthropic'))
    const { ctx, records } = context()
    const result = await createApiAgent({ provider: 'anthropic', model: 'fake-claude-model', maxOutputTokens: 2048, transport: transport() }).run(ctx)

    expect(result).toEqual({
      finalAnswer: SCRIPTED_FINAL_ANSWER,
      usage: { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 10, cache_creation_input_tokens: 20 },
      costUsd: null,
      model: 'fake-claude',
    })
    expectPartMoved()

    expect(server.requests).toHaveLength(4)
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/messages')
      expect(request.headers['x-api-key']).toBe(ANTHROPIC_KEY)
      expect(request.headers['anthropic-version']).toBe('2023-06-01')
      expect(request.headers.authorization).toBeUndefined()
      expect(request.body).toMatchObject({ model: 'fake-claude-model', max_tokens: 2048 })
    }
    const [first, second, , fourth] = server.requests as [ReceivedRequest, ReceivedRequest, ReceivedRequest, ReceivedRequest]
    expect(first.body.tools).toEqual(runtime.enabledToolDefinitions().map(d => ({ name: d.name, description: d.description, input_schema: d.inputSchema })))
    expect(messagesOf(first)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Assemble the parts.' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64(PAGE.bytes) } }] }])

    const history = messagesOf(second)
    expect((history[1]!.content as Json[])[0]).toEqual({ type: 'thinking', thinking: 'private reasoning', signature: 'sig' })
    const sceneResult = (history[2]!.content as Json[])[0]!
    expect(sceneResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' })
    expect(sceneResult.is_error).toBeUndefined()

    const captureResult = (messagesOf(fourth).at(-1)!.content as Json[])[0]!
    expect(captureResult.tool_use_id).toBe('toolu_3')
    const blocks = captureResult.content as Json[]
    expect(blocks[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64(CAPTURE_PNG) } })
    expect(String(blocks[0]!.text)).not.toContain(base64(CAPTURE_PNG))

    expect(JSON.stringify(records)).not.toContain('private reasoning')
    expect(records.filter(r => r.type === 'message')).toEqual([
      { type: 'message', role: 'assistant', content: 'Step 1: get_scene.' },
      { type: 'message', role: 'assistant', content: 'Step 2: set_object_pose.' },
      { type: 'message', role: 'assistant', content: 'Step 3: capture_scene.' },
      { type: 'message', role: 'assistant', content: SCRIPTED_FINAL_ANSWER },
    ])
  })

  it('marks a tool error envelope as is_error for the model', async () => {
    server.script('anthropic', [
      { body: { model: 'x', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_object', input: { id: 'missing' } }], usage: { input_tokens: 1, output_tokens: 1 } } },
      { body: { model: 'x', content: [{ type: 'text', text: '{"status":"unable"}' }] } },
    ])
    await createApiAgent({ provider: 'anthropic', model: 'm', transport: transport() }).run(context().ctx)
    const result = (messagesOf(server.requests[1]!).at(-1)!.content as Json[])[0]!
    expect(result.is_error).toBe(true)
    expect(String((result.content as Json[])[0]!.text)).toContain('Unknown object: missing')
  })
})

describe('limits and failures over HTTP', () => {
  it('fails with API_AGENT_TURN_LIMIT when the model still calls tools at the limit, keeping what was spent', async () => {
    server.script('openai', scriptedAssemblyConversation('openai'))
    const error = await createApiAgent({ provider: 'openai', model: 'm', maxTurns: 2, transport: transport() }).run(context().ctx).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiAgentError)
    expect(error).toMatchObject({ code: 'API_AGENT_TURN_LIMIT', spent: { usage: { input_tokens: 300, output_tokens: 30, cached_input_tokens: 3 }, costUsd: null } })
    expect((error as Error).message).toContain('after 2 model requests')
    expect(server.requests).toHaveLength(2)
  })

  it('stops waiting for the model when the time limit aborts the run', async () => {
    const controller = new AbortController()
    server.script('openai', [{ hang: true, onReceive: () => controller.abort(new Error('time limit of 1 s reached')) }])
    const error = await createApiAgent({ provider: 'openai', model: 'm', transport: transport() }).run(context(controller.signal).ctx).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'API_AGENT_ABORTED' })
    expect((error as Error).message).toContain('time limit of 1 s reached')
  })

  it('fails with API_AGENT_MALFORMED_RESPONSE on JSON that is not a chat completion', async () => {
    server.script('openai', [{ body: { choices: [] } }])
    const error = await createApiAgent({ provider: 'openai', model: 'm', transport: transport() }).run(context().ctx).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'API_AGENT_MALFORMED_RESPONSE' })
    expect((error as Error).message).toContain('OPENAI_BASE_URL')
  })

  it('surfaces a 401 as LLM_HTTP_ERROR with the provider message, no retry, and the key redacted', async () => {
    server.script('openai', [{ status: 401, body: { error: { message: `Incorrect API key provided: ${OPENAI_KEY}.`, type: 'invalid_request_error' } } }])
    const error = await createApiAgent({ provider: 'openai', model: 'm', transport: transport() }).run(context().ctx).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LlmError)
    expect(error).toMatchObject({ code: 'LLM_HTTP_ERROR', status: 401 })
    expect((error as Error).message).toContain('HTTP 401')
    expect((error as Error).message).toContain('Incorrect API key provided')
    expect((error as Error).message).not.toContain(OPENAI_KEY)
    expect(server.requests).toHaveLength(1)
  })

  it('retries a 429 and goes on with the next answer', async () => {
    server.script('anthropic', [
      { status: 429, headers: { 'retry-after': '0' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } } },
      { body: { model: 'fake-claude', content: [{ type: 'text', text: '{"status":"unable"}' }], usage: { input_tokens: 5, output_tokens: 2 } } },
    ])
    const result = await createApiAgent({ provider: 'anthropic', model: 'm', transport: transport() }).run(context().ctx)
    expect(result.finalAnswer).toBe('{"status":"unable"}')
    expect(result.usage).toEqual({ input_tokens: 5, output_tokens: 2 })
    expect(server.requests).toHaveLength(2)
  })
})

describe('an API agent in a real run (child `vitest run`, real Chromium)', () => {
  it('runs its loop in its realm: each model request goes through the harness to Node, which holds the key and counts the usage', async () => {
    const root = resolve(import.meta.dirname, '..', '..')
    const runs = await mkdtemp(join(tmpdir(), 'awb-api-run-'))
    try {
      server.script('openai', scriptedAssemblyConversation('openai'))
      let output = ''
      const child = spawn(process.execPath, vitestCli('run', ['--project', 'partnet-none', '-t', '44266']), {
        cwd: root,
        env: { ...process.env, AWB_AGENT: 'openai:fake-gpt-model', OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: OPENAI_KEY, AWB_RUNS: runs, NO_COLOR: '1', AWB_REPORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
      child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
      const code = await new Promise<number | null>(resolvePromise => child.on('close', resolvePromise))
      expect(server.requests, output).toHaveLength(4)
      for (const request of server.requests) expect(request.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`)
      const [runId] = await readdir(runs)
      const sampleDir = join(runs, runId!, 'blocks', 'partnet-none', 'samples', '44266')
      const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as Record<string, unknown>
      expect(result, output).toMatchObject({
        status: 'completed',
        execution: { status: 'completed', final_answer: SCRIPTED_FINAL_ANSWER, usage: { input_tokens: 1000, output_tokens: 100, cached_input_tokens: 10 }, model: 'fake-gpt' },
        tool_calls: 3,
      })
      const conversation = await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')
      expect(conversation.split('\n').filter(line => line.includes('"type":"tool_call"'))).toHaveLength(3)
      expect(conversation).not.toContain(OPENAI_KEY)
      expect(code, output).toBe(0)
    } finally {
      await rm(runs, { recursive: true, force: true })
    }
  }, 240_000)
})

