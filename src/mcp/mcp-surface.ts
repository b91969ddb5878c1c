// One sample's MCP surface: the kind (benchmark or direct), the relay and the shared call lane; hands out a fresh
// protocol server per connection (stdio, in-memory, or one per stateless HTTP request). No transport here.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { createBenchmarkServer } from './benchmark-surface.ts'
import { createDirectServer } from './direct-surface.ts'
import { type ConversationSink, ToolCallGate } from './tool-call-gate.ts'
import type { ToolRelay } from './tool-relay.ts'

export const SURFACE_KINDS = ['benchmark', 'direct'] as const
export type SurfaceKind = (typeof SURFACE_KINDS)[number]

/** Name the servers announce; agent CLIs register them as `assembly`. */
export const MCP_SERVER_INFO = { name: 'assembly', version: '1.0.0' } as const

export interface McpSurfaceOptions {
  relay: ToolRelay
  /** `benchmark` (default: the four tools the reference gives agents) or `direct` (the page tools themselves). */
  surface?: SurfaceKind | undefined
  /** Receives every `tool_call` and `tool_result` record. */
  onRecord?: ConversationSink | undefined
  /** Per-call limit in milliseconds (default `MCP_TOOL_TIMEOUT_MS`, 300 s). */
  toolTimeoutMs?: number | undefined
}

export interface McpSurface {
  readonly kind: SurfaceKind
  /** Number of tool calls started so far (= `tool_call` records). */
  readonly calls: number
  /** Number of `tools/list` requests answered so far. */
  readonly listings: number
  /** A new protocol server over the shared lane: connect it to one transport, close it when that ends. */
  createServer(): Server
}

/** Builds a sample's surface; every server it creates shares one lane, so calls from all clients are serialised. */
export function createMcpSurface(options: McpSurfaceOptions): McpSurface {
  const kind = options.surface ?? 'benchmark'
  const gate = new ToolCallGate({ timeoutMs: options.toolTimeoutMs, onRecord: options.onRecord })
  return {
    kind,
    get calls() {
      return gate.calls
    },
    get listings() {
      return gate.listings
    },
    createServer: () => {
      switch (kind) {
        case 'benchmark':
          return createBenchmarkServer(options.relay, gate, MCP_SERVER_INFO)
        case 'direct':
          return createDirectServer(options.relay, gate, MCP_SERVER_INFO)
        default: {
          const never: never = kind
          throw new TypeError(`unknown MCP surface ${String(never)}`)
        }
      }
    },
  }
}
