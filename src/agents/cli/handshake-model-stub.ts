// Node only: a one-answer model endpoint on 127.0.0.1 for `awb doctor`'s CLI handshake. It answers every Anthropic
// Messages or OpenAI Responses request with a streamed "OK" and remembers which tools the CLI offered its model.
// It is not a model and calls none; it never sees a real key.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The text every request gets. */
const STUB_ANSWER = 'OK'

export interface HandshakeModelStub {
  /** `http://127.0.0.1:<port>` (ANTHROPIC_BASE_URL); Responses live under `/v1`. */
  readonly url: string
  /** Every tool name offered in any request; Codex namespaces appear as `<namespace>.<tool>`. */
  readonly offeredTools: ReadonlySet<string>
  /** Number of model requests received. */
  readonly requests: number
  close(): Promise<void>
}

export async function startHandshakeModelStub(): Promise<HandshakeModelStub> {
  const offered = new Set<string>()
  let requests = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]
      let body: unknown
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        body = undefined
      }
      const tools = body !== null && typeof body === 'object' ? (body as { tools?: unknown }).tools : undefined
      collectToolNames(tools, undefined, offered)
      if (req.method === 'POST' && path === '/v1/messages') {
        requests++
        return streamAnthropic(res)
      }
      if (req.method === 'POST' && path === '/v1/responses') {
        requests++
        return streamResponses(res)
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }))
    })
  })
  // Codex tries a WebSocket first; refusing the upgrade sends it to HTTPS + SSE.
  server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    offeredTools: offered,
    get requests() {
      return requests
    },
    close: () => {
      server.closeAllConnections()
      return new Promise(resolve => server.close(() => resolve()))
    },
  }
}

/** Claude's `{name}` tools and Codex's `{type: "namespace", name, tools}` groups, flattened to names. */
function collectToolNames(tools: unknown, namespace: string | undefined, into: Set<string>): void {
  if (!Array.isArray(tools)) return
  for (const tool of tools) {
    if (tool === null || typeof tool !== 'object') continue
    const { type, name, tools: nested } = tool as { type?: unknown, name?: unknown, tools?: unknown }
    if (typeof name !== 'string') continue
    if (type === 'namespace') collectToolNames(nested, name, into)
    else into.add(namespace === undefined ? name : `${namespace}.${name}`)
  }
}

function writeSse(res: ServerResponse, events: readonly Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  for (const event of events) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`)
  res.end()
}

/** The Messages streaming sequence for one text block (message_start … message_stop). */
function streamAnthropic(res: ServerResponse): void {
  const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
  writeSse(res, [
    { type: 'message_start', message: { id: 'msg_awb_doctor', type: 'message', role: 'assistant', model: 'awb-doctor', content: [], stop_reason: null, stop_sequence: null, usage } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: STUB_ANSWER } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } },
    { type: 'message_stop' },
  ])
}

/** The Responses streaming sequence for one output_text message (response.created … response.completed). */
function streamResponses(res: ServerResponse): void {
  const item = { id: 'msg_awb_doctor', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: STUB_ANSWER, annotations: [] }] }
  const response = { id: 'resp_awb_doctor', object: 'response', created_at: 0, model: 'awb-doctor', status: 'in_progress', output: [] as unknown[] }
  let sequence = 0
  const event = (type: string, data: Record<string, unknown>): Record<string, unknown> => ({ type, sequence_number: sequence++, ...data })
  writeSse(res, [
    event('response.created', { response }),
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
    event('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: STUB_ANSWER }),
    event('response.output_item.done', { output_index: 0, item }),
    event('response.completed', { response: { ...response, status: 'completed', output: [item], usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } }),
  ])
}
