// A local model server for the real agent CLIs: Anthropic Messages and OpenAI Responses, both streamed as the
// providers stream them (SSE event sequences), driving a scripted assembly conversation through whatever MCP tools
// the request offers. Records every request. For tests only; it calls no model.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type SseProvider = 'anthropic' | 'openai'

export interface SseRequest {
  provider: SseProvider
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

/** One scripted step: a call of the benchmark tool whose name ends with `tool` (the CLI's prefix varies). */
export interface ScriptedToolCall {
  tool: 'list_pages' | 'list_webmcp_tools' | 'execute_webmcp_tool' | 'read_manual_page'
  arguments: Record<string, unknown>
}

/** list_pages → list_webmcp_tools → translate part-0001 → get_scene, then the final answer. */
export const DEFAULT_TOOL_SCRIPT: readonly ScriptedToolCall[] = [
  { tool: 'list_pages', arguments: {} },
  { tool: 'list_webmcp_tools', arguments: { pageId: 1 } },
  { tool: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'translate_objects', input: JSON.stringify({ ids: ['part-0001'], delta: [0.1, 0, 0] }) } },
  { tool: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'get_scene', input: '{}' } },
]

export const SSE_FINAL_ANSWER = `Done.\n${JSON.stringify({ status: 'completed', summary: 'Moved part-0001 by 0.1 along X.', checked_connections: ['part-0001/part-0002'], uncertainties: [] })}`

export interface SseModelServer {
  /** `http://127.0.0.1:<port>`: ANTHROPIC_BASE_URL. */
  readonly anthropicBaseUrl: string
  /** `http://127.0.0.1:<port>/v1`: OPENAI_BASE_URL / Codex `openai_base_url`. */
  readonly openaiBaseUrl: string
  readonly requests: SseRequest[]
  /** Requests of the scripted conversation (those that offered the benchmark tools or carried their results). */
  conversationRequests(): SseRequest[]
  close(): Promise<void>
}

/** Per-turn usage the server reports: input 100, output 10, cache reads 5. */
const TURN_USAGE = { input: 100, output: 10, cached: 5 }

/**
 * Starts the server on 127.0.0.1. Each request is answered from its own content (stateless): the number of tool
 * results it carries is the step of the script. A request that offers no benchmark tool (a CLI's side query, or
 * a CLI that connected no MCP server) gets a short final text, so a CLI without tools ends with zero calls.
 */
export async function startSseModelServer(options: { script?: readonly ScriptedToolCall[] } = {}): Promise<SseModelServer> {
  const script = options.script ?? DEFAULT_TOOL_SCRIPT
  const requests: SseRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!
      let body: Record<string, unknown> = {}
      try {
        const parsed: unknown = chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8'))
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>
      } catch {
        body = {}
      }
      const provider: SseProvider = path.startsWith('/v1/messages') ? 'anthropic' : 'openai'
      requests.push({ provider, method: req.method ?? 'GET', path, headers: req.headers, body })
      if (req.method === 'POST' && path === '/v1/messages') return anthropicReply(res, body, script)
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') return json(res, 200, { input_tokens: 100 })
      if (req.method === 'POST' && path === '/v1/responses') return openaiReply(res, body, script)
      if (req.method === 'GET' && path === '/v1/models') return json(res, 200, { object: 'list', data: [{ id: 'fake-gpt', object: 'model', owned_by: 'fake' }] })
      json(res, 404, { error: { type: 'not_found_error', message: `fake model server: no route ${req.method} ${path}` } })
    })
  })
  // Codex opens a WebSocket to /v1/responses first; refusing the upgrade makes it fall back to HTTPS + SSE.
  server.on('upgrade', (_req, socket) => {
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    conversationRequests: () => requests.filter(request => benchmarkTools(request.body).length > 0),
    close: () => {
      server.closeAllConnections()
      return new Promise(resolve => server.close(() => resolve()))
    },
  }
}

/**
 * Names of the offered tools that end with a benchmark tool name: Claude's `mcp__assembly__list_pages`, or
 * Codex's namespaced functions (`{type: "namespace", name: "mcp__assembly", tools: [...]}`) as `mcp__assembly.list_pages`.
 */
export function benchmarkTools(body: Record<string, unknown>): string[] {
  const names: string[] = []
  const visit = (tools: unknown, namespace: string | undefined): void => {
    if (!Array.isArray(tools)) return
    for (const tool of tools) {
      if (tool === null || typeof tool !== 'object') continue
      const record = tool as Record<string, unknown>
      const name = typeof record.name === 'string' ? record.name : undefined
      if (record.type === 'namespace') visit(record.tools, name)
      else if (name !== undefined && /(list_pages|list_webmcp_tools|execute_webmcp_tool|read_manual_page)$/.test(name)) names.push(namespace === undefined ? name : `${namespace}.${name}`)
    }
  }
  visit(body.tools, undefined)
  return names
}

/** The next step: the scripted call (with the offered tool name) or undefined for the final answer. */
function nextCall(body: Record<string, unknown>, results: number, script: readonly ScriptedToolCall[]): { name: string, arguments: Record<string, unknown> } | undefined {
  const offered = benchmarkTools(body)
  const step = script[results]
  if (step === undefined || offered.length === 0) return undefined
  const name = offered.find(candidate => candidate.endsWith(step.tool))
  return name === undefined ? undefined : { name, arguments: step.arguments }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function sse(res: ServerResponse, events: readonly { event: string, data: Record<string, unknown> }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  for (const { event, data } of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  res.end()
}

// --- Anthropic Messages (https://docs.anthropic.com/en/api/messages-streaming) ---

function anthropicReply(res: ServerResponse, body: Record<string, unknown>, script: readonly ScriptedToolCall[]): void {
  const messages = Array.isArray(body.messages) ? body.messages : []
  let results = 0
  for (const message of messages) {
    const content = (message as { content?: unknown }).content
    if (Array.isArray(content)) results += content.filter(block => (block as { type?: unknown }).type === 'tool_result').length
  }
  const call = nextCall(body, results, script)
  const id = `msg_fake_${results}_${Math.random().toString(36).slice(2, 8)}`
  const model = typeof body.model === 'string' ? body.model : 'fake-claude'
  const events: { event: string, data: Record<string, unknown> }[] = [
    { event: 'message_start', data: { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: TURN_USAGE.input, cache_creation_input_tokens: 0, cache_read_input_tokens: TURN_USAGE.cached, output_tokens: 1 } } } },
    { event: 'ping', data: { type: 'ping' } },
  ]
  const text = call === undefined ? SSE_FINAL_ANSWER : `Step ${results + 1}: ${call.name}.`
  events.push(
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
  )
  if (call !== undefined) {
    const input = JSON.stringify(call.arguments)
    const cut = Math.floor(input.length / 2)
    events.push(
      { event: 'content_block_start', data: { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: `toolu_fake_${results + 1}`, name: call.name, input: {} } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: input.slice(0, cut) } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: input.slice(cut) } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
    )
  }
  events.push(
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: call === undefined ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: TURN_USAGE.output } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  )
  if (body.stream === true) return sse(res, events)
  // Non-streamed side queries: the same message as one JSON body.
  const content: Record<string, unknown>[] = [{ type: 'text', text }]
  if (call !== undefined) content.push({ type: 'tool_use', id: `toolu_fake_${results + 1}`, name: call.name, input: call.arguments })
  json(res, 200, { id, type: 'message', role: 'assistant', model, content, stop_reason: call === undefined ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: TURN_USAGE.input, output_tokens: TURN_USAGE.output, cache_read_input_tokens: TURN_USAGE.cached, cache_creation_input_tokens: 0 } })
}

// --- OpenAI Responses (https://platform.openai.com/docs/api-reference/responses-streaming) ---

function openaiReply(res: ServerResponse, body: Record<string, unknown>, script: readonly ScriptedToolCall[]): void {
  const input = Array.isArray(body.input) ? body.input : []
  const results = input.filter(item => (item as { type?: unknown }).type === 'function_call_output').length
  const call = nextCall(body, results, script)
  const id = `resp_fake_${results}_${Math.random().toString(36).slice(2, 8)}`
  const model = typeof body.model === 'string' ? body.model : 'fake-gpt'
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status: 'in_progress', output: [] as unknown[] }
  let sequence = 0
  const events: { event: string, data: Record<string, unknown> }[] = []
  const push = (type: string, data: Record<string, unknown>): void => {
    events.push({ event: type, data: { type, sequence_number: sequence++, ...data } })
  }
  push('response.created', { response: base })
  push('response.in_progress', { response: base })
  const output: Record<string, unknown>[] = []
  if (call === undefined) {
    const item = { id: `msg_${id}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: SSE_FINAL_ANSWER, annotations: [] }] }
    push('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } })
    push('response.content_part.added', { item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
    push('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: SSE_FINAL_ANSWER })
    push('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text: SSE_FINAL_ANSWER })
    push('response.content_part.done', { item_id: item.id, output_index: 0, content_index: 0, part: item.content[0]! })
    push('response.output_item.done', { output_index: 0, item })
    output.push(item)
  } else {
    const args = JSON.stringify(call.arguments)
    // A namespaced tool is called by its own name with the namespace beside it, as the Responses API returns it.
    const dot = call.name.lastIndexOf('.')
    const naming = dot < 0 ? { name: call.name } : { name: call.name.slice(dot + 1), namespace: call.name.slice(0, dot) }
    const item = { id: `fc_${id}`, type: 'function_call', status: 'completed', call_id: `call_fake_${results + 1}`, ...naming, arguments: args }
    push('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } })
    push('response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta: args })
    push('response.function_call_arguments.done', { item_id: item.id, output_index: 0, arguments: args })
    push('response.output_item.done', { output_index: 0, item })
    output.push(item)
  }
  push('response.completed', {
    response: {
      ...base, status: 'completed', output,
      usage: { input_tokens: TURN_USAGE.input, input_tokens_details: { cached_tokens: TURN_USAGE.cached }, output_tokens: TURN_USAGE.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: TURN_USAGE.input + TURN_USAGE.output },
    },
  })
  sse(res, events)
}
