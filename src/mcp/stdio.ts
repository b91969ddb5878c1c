// Node only: the stdio transports — serving a surface on this process's stdin/stdout, and the bridge an agent CLI
// spawns that forwards its stdio to a sample's Streamable HTTP endpoint. No tools here.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { McpError } from './errors.ts'
import type { McpSurface } from './mcp-surface.ts'

/** Serves `surface` on stdin/stdout; resolves when stdin closes (the client went away). */
export async function serveStdio(surface: McpSurface, streams: { stdin?: NodeJS.ReadableStream, stdout?: NodeJS.WritableStream } = {}): Promise<void> {
  const stdin = streams.stdin ?? process.stdin
  const transport = new StdioServerTransport(stdin as typeof process.stdin, (streams.stdout ?? process.stdout) as typeof process.stdout)
  const closed = new Promise<void>(resolve => {
    stdin.once('end', resolve)
    stdin.once('close', resolve)
  })
  const server = surface.createServer()
  await server.connect(transport)
  await closed
  await server.close()
}

export interface StdioBridgeOptions {
  /** The sample's endpoint, `http://127.0.0.1:<port>/<token>/mcp`. */
  url: string
  stdin?: NodeJS.ReadableStream
  stdout?: NodeJS.WritableStream
}

/**
 * Forwards JSON-RPC messages between stdio (the agent CLI) and the HTTP endpoint, unchanged, until stdin
 * closes. A message the endpoint cannot take is answered on stdio with a JSON-RPC error for its id, so the
 * agent sees the failure instead of waiting for ever.
 */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  let url: URL
  try {
    url = new URL(options.url)
  } catch (cause) {
    throw new McpError('MCP_BRIDGE_CONNECT', `--connect ${options.url} is not a URL; pass the endpoint printed by the harness (http://127.0.0.1:<port>/<token>/mcp)`, { cause })
  }
  const stdin = options.stdin ?? process.stdin
  const local = new StdioServerTransport(stdin as typeof process.stdin, (options.stdout ?? process.stdout) as typeof process.stdout)
  const remote = new StreamableHTTPClientTransport(url)
  const closed = new Promise<void>(resolve => {
    stdin.once('end', resolve)
    stdin.once('close', resolve)
  })
  remote.onmessage = message => {
    const version = negotiatedVersion(message)
    if (version !== undefined) remote.setProtocolVersion(version)
    void local.send(message)
  }
  local.onmessage = message => {
    remote.send(message).catch((error: unknown) => {
      if ('id' in message && 'method' in message) {
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `the environment endpoint did not answer: ${error instanceof Error ? error.message : String(error)}` } })
      }
    })
  }
  await remote.start()
  await local.start()
  await closed
  await Promise.allSettled([local.close(), remote.close()])
}

/** The protocol version of an `initialize` result, which later HTTP requests must carry as a header. */
function negotiatedVersion(message: JSONRPCMessage): string | undefined {
  if (!('result' in message)) return undefined
  const version = (message.result as { protocolVersion?: unknown }).protocolVersion
  return typeof version === 'string' ? version : undefined
}
