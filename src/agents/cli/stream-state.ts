// What a CLI agent's event stream tells the harness (final answer, usage, cost, model, errors); shared by the
// Codex and Claude readers. No parsing here.

/** Accumulated from the events in order; unknown values stay null (never estimated). */
export interface CliStreamState {
  /** The last final answer the CLI reported. */
  finalAnswer: string | null
  /** Token usage exactly as the CLI reported it (Codex: summed over turns). */
  usage: Record<string, unknown> | null
  /** Only when the CLI reports it (Claude `total_cost_usd`). */
  costUsd: number | null
  /** The model the CLI reports (Claude init), else null. */
  model: string | null
  /** `error`, `turn.failed` and Claude `is_error` results, in order: the CLI's own errors. */
  agentErrors: string[]
  /** Notices the CLI reports as errors but that do not fail a turn (Codex `Reconnecting… n/5`), in order. */
  warnings: string[]
  /** MCP servers and their status as the CLI reported them at start (Claude init), else null (not reported). */
  mcpServers: McpServerStatus[] | null
  /** Stdout lines that were not JSON objects. */
  parseErrors: number
}

/** One MCP server as a CLI lists it at start (`connected`, `pending`, `failed`, …). */
export interface McpServerStatus {
  name: string
  status: string
}

export function emptyStreamState(): CliStreamState {
  return { finalAnswer: null, usage: null, costUsd: null, model: null, agentErrors: [], warnings: [], mcpServers: null, parseErrors: 0 }
}
