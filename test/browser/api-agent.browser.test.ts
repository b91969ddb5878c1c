import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseAgentOutcome, type AgentRunContext, type ConversationEntry, type ReferencePage } from '../../src/agents/index.ts'
import { createApiAgent, type ModelProvider, type ModelRequest, type ModelTransport } from '../../src/agents/api/index.ts'
import { AgentFailure, openAgentRealm, runAgentInRealm } from '../../src/agents/realm/index.ts'
import { commands } from 'vitest/browser'
import { createThreeSceneRenderer } from '../../src/render/index.ts'
import { WebMcpToolRegistry } from '../../src/webmcp/index.ts'
import { WorldRuntime } from '../../src/world/index.ts'
import { buildSetupEpisode, tinyPng } from '../helpers/episode-fixture.ts'
import { loadPageMujoco } from './support/fixture-world.ts'
import { pngSize } from './support/png-pixels.ts'

// The agent loop over an in-page fake transport that plays the scripted assembly conversation: first in the page
// itself, then as a run has it, in its realm (a sandboxed frame) whose model requests the harness carries.

const POSE = { id: 'part-0002', position: [0.4, 0.1, 0.3], quaternion: [1, 0, 0, 0] }
const FINAL = '{"status":"completed","summary":"Moved part-0002.","checked_connections":[],"uncertainties":[]}'
const CALLS = [{ name: 'get_scene', input: {} }, { name: 'set_object_pose', input: POSE }, { name: 'capture_scene', input: {} }]

function reply(provider: ModelProvider, turn: number): unknown {
  const call = CALLS[turn - 1]
  const usage = provider === 'openai' ? { prompt_tokens: 10, completion_tokens: 1 } : { input_tokens: 10, output_tokens: 1 }
  if (provider === 'openai') {
    const message = call === undefined
      ? { role: 'assistant', content: FINAL }
      : { role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }] }
    return { model: 'page-fake', choices: [{ message }], usage }
  }
  const content = call === undefined ? [{ type: 'text', text: FINAL }] : [{ type: 'tool_use', id: `t${turn}`, name: call.name, input: call.input }]
  return { model: 'page-fake', content, usage }
}

function pageTransport(provider: ModelProvider): { transport: ModelTransport; requests: ModelRequest[] } {
  const requests: ModelRequest[] = []
  return { requests, transport: { send: async (request) => { requests.push(structuredClone(request)); return reply(provider, requests.length) } } }
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), c => c.charCodeAt(0))

/** The base64 of the capture as the last request carries it: an image_url data URL, or an image block in tool_result. */
function capturedImage(provider: ModelProvider, request: ModelRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[]
  const last = messages.at(-1)!.content as Record<string, unknown>[]
  if (provider === 'openai') {
    const url = (last[1]!.image_url as { url: string }).url
    expect(url.startsWith('data:image/png;base64,')).toBe(true)
    return url.slice('data:image/png;base64,'.length)
  }
  const block = (last[0]!.content as Record<string, unknown>[])[1]!
  expect(block).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } })
  return (block.source as { data: string }).data
}

describe('API agents in the page over the registered WebMCP tools', () => {
  let runtime: WorldRuntime
  let registry: WebMcpToolRegistry

  beforeEach(async () => {
    runtime = WorldRuntime.open({ mujoco: await loadPageMujoco(), episode: buildSetupEpisode(), renderer: createThreeSceneRenderer(), source: 'fixture' })
    registry = WebMcpToolRegistry.open()
    await registry.register(runtime)
  })
  afterEach(() => {
    registry.dispose()
    runtime.dispose()
  })

  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}: runs the loop in the page, moves the part, and shows the rendered capture to the model as an image`, async () => {
      const { transport, requests } = pageTransport(provider)
      const records: ConversationEntry[] = []
      const signal = new AbortController().signal
      const page: ReferencePage = { page: 1, mimeType: 'image/png', bytes: tinyPng(3) }
      const ctx: AgentRunContext = {
        prompt: 'Assemble.', pages: [page], signal,
        tools: { list: () => registry.listTools(), call: (name, input) => registry.invokeTool(name, input, { signal }) },
        record: async (entry) => { records.push(entry) },
      }
      const result = await createApiAgent({ provider, model: 'page-model', transport }).run(ctx)

      expect(parseAgentOutcome(result.finalAnswer)).toMatchObject({ status: 'completed' })
      expect(result.usage).toEqual({ input_tokens: 40, output_tokens: 4 })
      expect(requests).toHaveLength(4)
      expect((requests[0]!.body.tools as unknown[]).length).toBe(12)
      expect(pngSize(fromBase64(capturedImage(provider, requests[3]!)))).toEqual({ width: 1024, height: 768 })

      const state = runtime.readState()
      expect([...state.subarray(8, 11)]).toEqual(POSE.position)
      const exported = runtime.exportEpisode()
      expect(exported.calls.map(call => call.name)).toEqual(['get_scene', 'set_object_pose', 'capture_scene'])
      expect(exported.observations.size).toBe(1)
      expect(records.filter(r => r.type === 'tool_call')).toHaveLength(3)
    })
  }

  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}: runs the loop in its realm, its model requests carried by the harness, and its usage reported`, async () => {
      const { transport, requests } = pageTransport(provider)
      const records: ConversationEntry[] = []
      const realm = openAgentRealm(await commands.awbTestRealmCode({ kind: 'api' }))
      try {
        const result = await runAgentInRealm(realm, { prompt: 'Assemble.', pages: [{ page: 1, mimeType: 'image/png', bytes: tinyPng(3) }], agent: { kind: 'api', spec: { provider, model: 'page-model', maxTurns: 10, maxOutputTokens: 100 } } }, {
          listTools: () => registry.listTools(),
          invokeTool: (name, input, options) => registry.invokeTool(name, input, options),
          record: async (entry) => { records.push(entry) },
          models: transport,
          signal: new AbortController().signal,
        })
        expect(parseAgentOutcome(result.finalAnswer)).toMatchObject({ status: 'completed' })
        expect(result).toMatchObject({ usage: { input_tokens: 40, output_tokens: 4 }, model: 'page-fake' })
        expect(requests).toHaveLength(4)
        expect(pngSize(fromBase64(capturedImage(provider, requests[3]!)))).toEqual({ width: 1024, height: 768 })
        expect(runtime.exportEpisode().calls.map(call => call.name)).toEqual(['get_scene', 'set_object_pose', 'capture_scene'])
        expect(records.filter(r => r.type === 'tool_call')).toHaveLength(3)
      } finally {
        realm.dispose()
      }
    })
  }

  it('reports what a failed API agent spent, through its realm (ApiAgentError, by name)', async () => {
    let turn = 0
    const transport: ModelTransport = { send: async () => (++turn === 1 ? reply('openai', 1) : { nonsense: true }) }
    const realm = openAgentRealm(await commands.awbTestRealmCode({ kind: 'api' }))
    try {
      const run = runAgentInRealm(realm, { prompt: 'Assemble.', pages: [], agent: { kind: 'api', spec: { provider: 'openai', model: 'page-model', maxTurns: 10, maxOutputTokens: 100 } } }, {
        listTools: () => registry.listTools(),
        invokeTool: (name, input, options) => registry.invokeTool(name, input, options),
        record: async () => {},
        models: transport,
        signal: new AbortController().signal,
      })
      const error = await run.then(() => undefined, (failure: unknown) => failure)
      expect(error).toBeInstanceOf(AgentFailure)
      expect(error).toMatchObject({ name: 'ApiAgentError', agentCode: 'API_AGENT_MALFORMED_RESPONSE', spent: { usage: { input_tokens: 10, output_tokens: 1 } } })
    } finally {
      realm.dispose()
    }
  })
})
