// The contract between the harness and an agent that acts in the page (built-in and API agents); no agents here.
import type { ConversationEntry, ReferencePage } from '../shared/agent-io.ts'

// Part of the contract, defined below src/mcp, which records and serves them too (src/shared/agent-io.ts).
export type { ConversationEntry, ReferencePage } from '../shared/agent-io.ts'

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
