// Node only: one sample's MCP endpoint for an agent process — the surface over the sample's relay, served over
// Streamable HTTP on 127.0.0.1 (private token path) for as long as the agent runs, then stopped.
import type { ConversationSink } from './tool-call-gate.ts'
import { createMcpSurface, type SurfaceKind } from './mcp-surface.ts'
import { startMcpHttpServer } from './http-server.ts'
import type { ToolRelay } from './tool-relay.ts'

export interface SampleEndpointOptions {
  relay: ToolRelay
  /** Default `benchmark` (the surface the CLIs get). */
  surface?: SurfaceKind | undefined
  /** Per tool call, in milliseconds (default 300 s). */
  toolTimeoutMs?: number | undefined
  onRecord?: ConversationSink | undefined
}

/** What the agent did on the endpoint: tool listings and calls, for telling "never reached" from "did nothing". */
export interface EndpointActivity {
  listings: number
  calls: number
}

/**
 * Serves the sample's endpoint while `run` runs (given its URL and a live view of the activity) and returns
 * `run`'s result with the number of tool calls (result.json `tool_calls`).
 */
export async function withSampleEndpoint<T>(options: SampleEndpointOptions, run: (url: string, activity: () => EndpointActivity) => Promise<T>): Promise<T & { toolCalls: number }> {
  const surface = createMcpSurface({ relay: options.relay, surface: options.surface, toolTimeoutMs: options.toolTimeoutMs, onRecord: options.onRecord })
  const server = await startMcpHttpServer({ surface })
  try {
    const result = await run(server.url, () => ({ listings: surface.listings, calls: surface.calls }))
    return { ...result, toolCalls: surface.calls }
  } finally {
    await server.close()
  }
}
