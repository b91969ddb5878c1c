// The contract between the harness and an agent that acts in the page (built-in and API agents); no agents here.

/** One tool as the agent sees it (from WebMCP registration). */
export interface AgentToolInfo {
  name: string
  description: string
  inputSchema: unknown
  annotations?: { readOnlyHint?: boolean } | undefined
}

/** The page's registered tools: list them, invoke one (the answer is the tool's JSON string, never a throw). */
export interface ToolSurface {
  list(): AgentToolInfo[]
  call(name: string, input: unknown): Promise<string>
}

/** A reference page attached to the first user message, in page order (benchmark-package.md §13.3). */
export interface ReferencePage {
  /** 1-based page number. */
  page: number
  mimeType: string
  bytes: Uint8Array
}

/** One `conversation.jsonl` record without its timestamp (runner.md §5.4); the host adds the time. */
export type ConversationEntry =
  | { type: 'message'; role: 'user' | 'assistant' | 'system'; content: unknown }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; id: string; result: unknown }
  /** `mcp_servers`: each MCP server's name and status as the CLI reported them at start (Claude Code). */
  | { type: 'session'; session_id: string; model: string | null; mcp_servers?: { name: string; status: string }[] }
  | { type: 'event'; event: unknown }
  | { type: 'parse_error'; text: string }

export interface AgentRunContext {
  /** The composed prompt: task text + the protocol block. */
  prompt: string
  pages: readonly ReferencePage[]
  tools: ToolSurface
  /** Aborted when the per-sample time limit is reached; agents must stop promptly. */
  signal: AbortSignal
  /** Appends to the sample's conversation.jsonl. */
  record(entry: ConversationEntry): Promise<void>
}

/** What an agent reports when it stops. Usage and cost are as reported by the model provider, never estimated. */
export interface AgentResult {
  finalAnswer: string | null
  /** Token counts as the provider reports them (CLI agents may nest objects). */
  usage: Record<string, unknown> | null
  costUsd: number | null
  model: string | null
}

/** An agent that runs inside the page next to the environment. */
export interface PageAgent {
  readonly name: string
  run(context: AgentRunContext): Promise<AgentResult>
}
