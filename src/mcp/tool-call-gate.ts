// Serialises an MCP surface's tool calls (one at a time per sample), bounds each by a time limit and reports
// every call and result to the conversation sink (runner.md §4.4, §4.8); knows nothing about the tools.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { ConversationEntry } from '../shared/agent-io.ts'
import { McpError } from './errors.ts'

/** One relayed tool call's limit (`WebMCP.invokeTool`, Codex `tool_timeout_sec`), in milliseconds. */
export const MCP_TOOL_TIMEOUT_MS = 300_000

/** Receives `tool_call` / `tool_result` records (→ `conversation.jsonl`); the host adds timestamps. */
export type ConversationSink = (entry: ConversationEntry) => void | Promise<void>

export interface ToolCallGateOptions {
  /** Per-call limit in milliseconds (default `MCP_TOOL_TIMEOUT_MS`). */
  timeoutMs?: number | undefined
  onRecord?: ConversationSink | undefined
}

/**
 * The single lane every tool call of one sample goes through, whichever client or transport sent it. A call
 * waits for the previous one, then `tool_call` is recorded, the task runs under the limit, and `tool_result`
 * (the full MCP result) is recorded. A call past the limit is aborted and answered with an `isError` result;
 * the lane is released so a hung page cannot block the agent's next call forever.
 */
export class ToolCallGate {
  private readonly timeoutMs: number
  private readonly onRecord: ConversationSink | undefined
  private lane: Promise<unknown> = Promise.resolve()
  private count = 0
  private listed = 0

  constructor(options: ToolCallGateOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? MCP_TOOL_TIMEOUT_MS
    this.onRecord = options.onRecord
  }

  /** Number of calls that have started so far. */
  get calls(): number {
    return this.count
  }

  /** Number of `tools/list` requests answered so far: with `calls`, whether an agent reached the surface at all. */
  get listings(): number {
    return this.listed
  }

  /** Counts one `tools/list` answer (not serialised or recorded: listing changes nothing). */
  noteListing(): void {
    this.listed++
  }

  run(name: string, args: unknown, task: (signal: AbortSignal) => Promise<CallToolResult>): Promise<CallToolResult> {
    const next = this.lane.then(() => this.runNow(name, args, task))
    // A failed call must not poison the lane for the calls queued behind it; its caller still sees the rejection.
    this.lane = next.catch(() => undefined)
    return next
  }

  private async runNow(name: string, args: unknown, task: (signal: AbortSignal) => Promise<CallToolResult>): Promise<CallToolResult> {
    const id = `call-${++this.count}`
    await this.onRecord?.({ type: 'tool_call', id, name, arguments: args })
    const result = await this.withLimit(name, task).catch((error: unknown): CallToolResult => errorResult(error instanceof Error ? error.message : String(error)))
    await this.onRecord?.({ type: 'tool_result', id, result })
    return result
  }

  private async withLimit(name: string, task: (signal: AbortSignal) => Promise<CallToolResult>): Promise<CallToolResult> {
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new McpError('MCP_TOOL_TIMEOUT', `Tool ${name} did not answer within ${this.timeoutMs / 1000} s and was cancelled; try a smaller step or call it again.`)
        controller.abort(error)
        reject(error)
      }, this.timeoutMs)
    })
    try {
      return await Promise.race([task(controller.signal), timeout])
    } finally {
      clearTimeout(timer)
    }
  }
}

/** An MCP tool result the model can read (`isError`), not a protocol failure. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}
