// A ToolRelay that exists before its environment does: an MCP server can answer `initialize` and `tools/list` (of
// the benchmark surface) at once while the browser starts, and tool calls wait for it. No MCP or I/O here.
import type { ReferencePage } from '../shared/agent-io.ts'
import type { RelayPage, ToolRelay } from './tool-relay.ts'

export interface DeferredRelayOptions {
  /** How `list_pages` shows the environment (fixed up front: it cannot wait for the browser's URL). */
  page: RelayPage
  referencePages: readonly ReferencePage[]
  /** The relay once the environment is open; a rejection fails every call with its message. */
  ready: Promise<ToolRelay>
}

/** Forwards every call to `ready` once it settles; nothing is queued beyond what the callers already await. */
export function createDeferredRelay(options: DeferredRelayOptions): ToolRelay {
  const { ready } = options
  // Calls made before a failed start see the failure as their own; avoid an unhandled rejection meanwhile.
  ready.catch(() => undefined)
  return {
    page: options.page,
    referencePages: options.referencePages,
    listTools: async () => (await ready).listTools(),
    callTool: async (name, input, callOptions) => (await ready).callTool(name, input, callOptions),
  }
}
