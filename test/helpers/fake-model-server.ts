// A local HTTP server speaking the subsets of Chat Completions and Messages the API agents use, replaying scripted
// replies and recording every request; for tests only (it calls no model).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeProvider = 'openai' | 'anthropic'

/** A request the server received: which API, its headers and parsed JSON body. */
export interface ReceivedRequest {
  provider: FakeProvider
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

/** One scripted answer. `body` may be computed from the request; `raw` sends text as is; `hang` never answers. */
export interface FakeReply {
  /** Called when the request that takes this reply arrives (e.g. to fire a time limit mid-request). */
  onReceive?: () => void
  status?: number
  headers?: Record<string, string>
  body?: unknown | ((request: ReceivedRequest) => unknown)
  raw?: string
  hang?: boolean
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>/v1`, for OPENAI_BASE_URL. */
  openaiBaseUrl: string
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  anthropicBaseUrl: string
  requests: ReceivedRequest[]
  /** Appends replies to the provider's queue; an empty queue answers 500. */
  script(provider: FakeProvider, replies: readonly FakeReply[]): void
  close(): Promise<void>
}

const ROUTES: Record<string, FakeProvider> = { '/v1/chat/completions': 'openai', '/v1/messages': 'anthropic' }

/** Starts the server on 127.0.0.1, port 0. */
export async function startFakeModelServer(): Promise<FakeModelServer> {
  const queues: Record<FakeProvider, FakeReply[]> = { openai: [], anthropic: [] }
  const requests: ReceivedRequest[] = []
  const hanging: ServerResponse[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const provider = ROUTES[req.url ?? '']
      if (req.method !== 'POST' || provider === undefined) {
        send(res, 404, { error: { message: `fake server: no route ${req.method} ${req.url}` } })
        return
      }
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      const body = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.fromEntries(Object.entries(parsed)) : {}
      const received: ReceivedRequest = { provider, path: req.url ?? '', headers: req.headers, body }
      requests.push(received)
      const reply = queues[provider].shift()
      if (reply === undefined) {
        send(res, 500, { error: { message: `fake server: no scripted ${provider} reply left` } })
        return
      }
      reply.onReceive?.()
      if (reply.hang === true) {
        hanging.push(res)
        return
      }
      if (reply.raw !== undefined) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers })
        res.end(reply.raw)
        return
      }
      const payload = typeof reply.body === 'function' ? (reply.body as (request: ReceivedRequest) => unknown)(received) : reply.body
      send(res, reply.status ?? 200, payload, reply.headers)
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    requests,
    script(provider, replies) {
      queues[provider].push(...replies)
    },
    close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      return new Promise(resolve => server.close(() => resolve()))
    },
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/** The arguments of the scripted `set_object_pose` call: part-0002 moved next to part-0001, a quarter turn about Z. */
export const SCRIPTED_POSE = { id: 'part-0002', position: [0.5, 0.25, 0.2], quaternion: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] }

/** The final answer of the scripted conversation. */
export const SCRIPTED_FINAL_ANSWER = `Done.\n${JSON.stringify({ status: 'completed', summary: 'Moved part-0002 next to part-0001.', checked_connections: ['part-0001/part-0002'], uncertainties: [] })}`

const SCRIPTED_CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'get_scene', arguments: {} },
  { name: 'set_object_pose', arguments: SCRIPTED_POSE },
  { name: 'capture_scene', arguments: {} },
]

/**
 * The scripted assembly conversation in `provider`'s format: turn n (1–3) calls `get_scene`, `set_object_pose`,
 * `capture_scene`, each with a short text; turn 4 answers `SCRIPTED_FINAL_ANSWER`. Turn n reports usage
 * input 100·n, output 10·n, cache reads n (and for Anthropic cache creation 2·n); OpenAI turns report `cost` 0.001·n
 * when `withCost`.
 */
export function scriptedAssemblyConversation(provider: FakeProvider, options: { withCost?: boolean } = {}): FakeReply[] {
  const replies: FakeReply[] = SCRIPTED_CALLS.map((call, i) => ({ body: provider === 'openai' ? openAiToolCall(i + 1, call, options.withCost) : anthropicToolUse(i + 1, call) }))
  replies.push({ body: provider === 'openai' ? openAiText(4, SCRIPTED_FINAL_ANSWER, options.withCost) : anthropicText(4, SCRIPTED_FINAL_ANSWER) })
  return replies
}

/** A Chat Completions reply calling `call` (id `call_<turn>`). */
export function openAiToolCall(turn: number, call: { name: string; arguments: unknown }, withCost = false, rawArguments?: string): Record<string, unknown> {
  return {
    id: `chatcmpl-${turn}`, object: 'chat.completion', model: 'fake-gpt',
    choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: `Step ${turn}: ${call.name}.`, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: call.name, arguments: rawArguments ?? JSON.stringify(call.arguments) } }] } }],
    usage: openAiUsage(turn, withCost),
  }
}

/** A Chat Completions reply with text only. */
export function openAiText(turn: number, text: string, withCost = false): Record<string, unknown> {
  return {
    id: `chatcmpl-${turn}`, object: 'chat.completion', model: 'fake-gpt',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
    usage: openAiUsage(turn, withCost),
  }
}

function openAiUsage(turn: number, withCost: boolean): Record<string, unknown> {
  return {
    prompt_tokens: 100 * turn, completion_tokens: 10 * turn, total_tokens: 110 * turn,
    prompt_tokens_details: { cached_tokens: turn }, ...(withCost ? { cost: 0.001 * turn } : {}),
  }
}

/** A Messages reply calling `call` (id `toolu_<turn>`). */
export function anthropicToolUse(turn: number, call: { name: string; arguments: unknown }): Record<string, unknown> {
  return {
    id: `msg_${turn}`, type: 'message', role: 'assistant', model: 'fake-claude', stop_reason: 'tool_use',
    content: [{ type: 'thinking', thinking: 'private reasoning', signature: 'sig' }, { type: 'text', text: `Step ${turn}: ${call.name}.` }, { type: 'tool_use', id: `toolu_${turn}`, name: call.name, input: call.arguments }],
    usage: anthropicUsage(turn),
  }
}

/** A Messages reply with text only. */
export function anthropicText(turn: number, text: string): Record<string, unknown> {
  return {
    id: `msg_${turn}`, type: 'message', role: 'assistant', model: 'fake-claude', stop_reason: 'end_turn',
    content: [{ type: 'text', text }],
    usage: anthropicUsage(turn),
  }
}

function anthropicUsage(turn: number): Record<string, unknown> {
  return { input_tokens: 100 * turn, output_tokens: 10 * turn, cache_read_input_tokens: turn, cache_creation_input_tokens: 2 * turn }
}
