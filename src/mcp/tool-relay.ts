// The ToolRelay contract (what an MCP surface serves: the page's tools and the sample's reference pages) and a
// relay backed by an in-process WorldRuntime; no MCP here.
import type { ReferencePage } from '../shared/agent-io.ts'

/** One page tool as WebMCP registers it (environment.md §4.2). */
export interface RelayTool {
  name: string
  description: string
  /** Draft-07 JSON Schema of the input. */
  inputSchema: Record<string, unknown>
  annotations?: { readOnlyHint?: boolean } | undefined
}

/** The environment page as `list_pages` shows it (chrome-devtools-mcp numbers pages from 1). */
export interface RelayPage {
  id: number
  url: string
  title: string
}

export interface RelayCallOptions {
  /** Aborted when the surface gives up on the call (per-call limit); relays should stop promptly. */
  signal: AbortSignal
}

/**
 * Everything an agent can reach through an MCP surface, and nothing else: the environment page, its
 * registered tools, and this sample's reference pages. Never ground truth, files or other samples.
 */
export interface ToolRelay {
  readonly page: RelayPage
  /** This sample's reference pages in page order (empty for `none` blocks). */
  readonly referencePages: readonly ReferencePage[]
  /** The page's currently registered tools, in registration order. */
  listTools(): Promise<readonly RelayTool[]>
  /**
   * Runs one page tool as the agent and resolves to its JSON string (a result or the `{error, code}`
   * envelope, environment.md §4.4). Rejects only when the page itself fails (crashed, closed).
   */
  callTool(name: string, input: Record<string, unknown>, options: RelayCallOptions): Promise<string>
}

/** The runtime side a relay needs: `WorldRuntime` satisfies it. */
export interface RelayRuntime {
  enabledToolDefinitions(): readonly RelayTool[]
  callTool(name: string, input: unknown, options: { actor: 'agent', signal?: AbortSignal }): Promise<string>
}

export interface RuntimeRelayOptions {
  runtime: RelayRuntime
  referencePages?: readonly ReferencePage[]
  /** Default `{id: 1, url: 'awb://environment', title: 'AssemblyWorldBench environment'}`. */
  page?: RelayPage
}

/** The default page entry of relays that have no real browser page. */
export const DEFAULT_RELAY_PAGE: RelayPage = { id: 1, url: 'awb://environment', title: 'AssemblyWorldBench environment' }

/** A relay over an in-process runtime (Node tests, `awb mcp` without a browser); calls are agent calls. */
export function createRuntimeRelay(options: RuntimeRelayOptions): ToolRelay {
  const { runtime } = options
  return {
    page: options.page ?? DEFAULT_RELAY_PAGE,
    referencePages: options.referencePages ?? [],
    listTools: async () => runtime.enabledToolDefinitions(),
    callTool: (name, input, { signal }) => runtime.callTool(name, input, { actor: 'agent', signal }),
  }
}
