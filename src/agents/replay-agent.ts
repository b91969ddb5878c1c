// The replay and idle agents: a recorded tool-call script run through the tools, in order; and doing nothing. No
// parsing here (calls-script.ts), so that the agent realm's bundle carries no schema library for them.
import type { AgentResult, PageAgent } from './agent.ts'
import type { ScriptCall } from './calls-script.ts'

/** The conversation id of a replay's `index`-th call (0-based), whoever records it. */
export function replayCallId(index: number): string {
  return `replay-${index}`
}

export interface ReplayAgentOptions {
  /**
   * Whether the agent records each call and its result itself (default true). In its realm it does not: the harness
   * records them around each call, with the same ids, in one message to the harness instead of three.
   */
  recordCalls?: boolean
}

/**
 * Replays `calls` as the agent, recording each call and result in the conversation. Tool errors are results,
 * not failures (the script goes on, as a model would). Stops between calls when the signal aborts.
 */
export function createReplayAgent(calls: readonly ScriptCall[], options: ReplayAgentOptions = {}): PageAgent {
  const recordCalls = options.recordCalls ?? true
  return {
    name: 'replay',
    async run(context): Promise<AgentResult> {
      let done = 0
      for (const [index, call] of calls.entries()) {
        context.signal.throwIfAborted()
        const id = replayCallId(index)
        if (recordCalls) await context.record({ type: 'tool_call', id, name: call.name, arguments: call.arguments })
        const result = await context.tools.call(call.name, call.arguments)
        if (recordCalls) await context.record({ type: 'tool_result', id, result })
        done++
      }
      const finalAnswer = JSON.stringify({
        status: 'completed',
        summary: `Replayed ${done} recorded tool calls.`,
        checked_connections: [],
        uncertainties: ['A replay does not inspect the scene; it repeats a recorded script.'],
      })
      await context.record({ type: 'message', role: 'assistant', content: finalAnswer })
      return { finalAnswer, usage: null, costUsd: null, model: null }
    },
  }
}

/** The idle agent: does nothing and says so; the initial scene is scored (a floor for any agent). */
export function createIdleAgent(): PageAgent {
  return {
    name: 'idle',
    async run(context): Promise<AgentResult> {
      const finalAnswer = JSON.stringify({ status: 'unable', summary: 'The idle agent takes no action.', checked_connections: [], uncertainties: [] })
      await context.record({ type: 'message', role: 'assistant', content: finalAnswer })
      return { finalAnswer, usage: null, costUsd: null, model: null }
    },
  }
}
