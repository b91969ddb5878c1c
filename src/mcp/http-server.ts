// Node only: serves an MCP surface over stateless Streamable HTTP on 127.0.0.1 (random port, unguessable path
// token, loopback Host only); one protocol server per request over the surface's shared lane. No tools here.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { McpError } from './errors.ts'
import type { McpSurface } from './mcp-surface.ts'

/** Random bytes of the per-sample path token (URL-safe base64, as the reference's episode routes). */
const TOKEN_BYTES = 24

export interface McpHttpServerOptions {
  surface: McpSurface
  /** Port on 127.0.0.1; default 0 (the OS picks a free one). */
  port?: number | undefined
}

export interface McpHttpServer {
  /** `http://127.0.0.1:<port>/<token>/mcp`: the only path that answers; treat it as a secret. */
  readonly url: string
  readonly port: number
  /** Stops listening and drops open connections; safe to call more than once. */
  close(): Promise<void>
}

/** Starts the endpoint; throws `McpError` (`MCP_HTTP_LISTEN`) when the port cannot be bound. */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<McpHttpServer> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url')
  const path = `/${token}/mcp`
  const http = createServer((req, res) => {
    void handle(options.surface, path, req, res)
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', cause => reject(new McpError('MCP_HTTP_LISTEN', `the MCP endpoint could not listen on 127.0.0.1:${options.port ?? 0}: ${cause.message}; choose another --http port`, { cause })))
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = http.address() as AddressInfo
  let closing: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    close: () => {
      closing ??= new Promise<void>(resolve => {
        http.close(() => resolve())
        http.closeAllConnections()
      })
      return closing
    },
  }
}

async function handle(surface: McpSurface, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  if (url.pathname !== path) return deny(res, 404, 'Not found')
  // DNS-rebinding guard: a browser page on another host name cannot reach the endpoint through this socket.
  const host = (req.headers.host ?? '').replace(/:\d+$/, '')
  if (host !== '127.0.0.1' && host !== 'localhost') return deny(res, 403, 'Forbidden host')
  const server = surface.createServer()
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  res.on('close', () => {
    void transport.close()
    void server.close()
  })
  try {
    await server.connect(transport)
    await transport.handleRequest(req, res)
  } catch (error) {
    if (!res.headersSent) deny(res, 500, error instanceof Error ? error.message : String(error))
  }
}

function deny(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(message)
}
