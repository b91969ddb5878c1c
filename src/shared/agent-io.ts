// What goes into an agent's run and what it records: reference pages in, conversation.jsonl entries out. Types only
// (page-safe, no code); the agent contract (src/agents) and the MCP surfaces (src/mcp) both use them, so they live
// below both instead of in either.

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
