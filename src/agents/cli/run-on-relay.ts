// Node only: one CLI-agent sample over a ToolRelay — starts the sample's MCP endpoint (Streamable HTTP on
// 127.0.0.1, private token), runs the agent with the stdio bridge to it, and stops the endpoint. The harness's
// entry point; the relay (page access) and the conversation file are the caller's.
import { withSampleEndpoint, type SurfaceKind, type ToolRelay } from '../../mcp/index.ts'
import { type CliAgentRun, runCliAgent, type RunCliAgentOptions } from './run-cli-agent.ts'

export interface RunCliAgentOnRelayOptions extends Omit<RunCliAgentOptions, 'mcp' | 'pages' | 'mcpActivity'> {
  /** The sample's page tools and reference pages (the pages are also attached to the first message). */
  relay: ToolRelay
  /** Default `benchmark`. */
  surface?: SurfaceKind | undefined
  /** Per tool call, in milliseconds (default 300 s). */
  toolTimeoutMs?: number | undefined
}

export interface CliAgentSampleRun extends CliAgentRun {
  /** Number of `tool_call` records (result.json `tool_calls`). */
  toolCalls: number
}

/** Runs the agent against the relay; `onRecord` receives the user message, agent events and every tool call/result. */
export async function runCliAgentOnRelay(options: RunCliAgentOnRelayOptions): Promise<CliAgentSampleRun> {
  const { relay, surface, toolTimeoutMs, ...agent } = options
  return withSampleEndpoint({ relay, surface, toolTimeoutMs, onRecord: options.onRecord }, (url, mcpActivity) =>
    runCliAgent({ ...agent, pages: relay.referencePages, mcp: { url }, mcpActivity }))
}
