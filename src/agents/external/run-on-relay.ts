// Node only: one external-agent sample over a ToolRelay — starts the sample's MCP endpoint (Streamable HTTP on
// 127.0.0.1, private token path), runs the program against it, and stops the endpoint. The harness's entry point.
import { withSampleEndpoint, type SurfaceKind, type ToolRelay } from '../../mcp/index.ts'
import { type ExternalAgentRun, runExternalAgent, type RunExternalAgentOptions } from './run-external-agent.ts'

export interface RunExternalAgentOnRelayOptions extends Omit<RunExternalAgentOptions, 'mcpUrl' | 'pages' | 'mcpActivity'> {
  /** The sample's page tools and reference pages (the pages are also copied into the workspace). */
  relay: ToolRelay
  /** Default `benchmark` (the surface the CLIs get). */
  surface?: SurfaceKind | undefined
  /** Per tool call, in milliseconds (default 300 s). */
  toolTimeoutMs?: number | undefined
}

export interface ExternalAgentSampleRun extends ExternalAgentRun {
  /** Number of `tool_call` records (result.json `tool_calls`). */
  toolCalls: number
}

export async function runExternalAgentOnRelay(options: RunExternalAgentOnRelayOptions): Promise<ExternalAgentSampleRun> {
  const { relay, surface, toolTimeoutMs, ...agent } = options
  return withSampleEndpoint({ relay, surface, toolTimeoutMs, onRecord: options.onRecord }, (mcpUrl, mcpActivity) =>
    runExternalAgent({ ...agent, pages: relay.referencePages, mcpUrl, mcpActivity }))
}
