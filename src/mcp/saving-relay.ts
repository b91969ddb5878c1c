// Wraps a ToolRelay so that the episode is saved after every tool call, before its answer goes back: whatever ends
// the process next (SIGKILL included), the last call the agent saw answered is in the saved file. No MCP here.
import type { ToolRelay } from './tool-relay.ts'

export interface SavingRelayOptions {
  relay: ToolRelay
  /** Saves the current world (atomically: readers see the previous or the new file, never a torn one). */
  save(): Promise<void>
  /** Told when a save fails; the call's answer still goes back (the next call or the exit retries). */
  onSaveError?: ((error: unknown) => void) | undefined
}

/**
 * Every call is recorded in the episode (read-only ones too: they are part of its history), so every call is
 * followed by a save. The relay's calls are serialised by the surface's lane, so saves never overlap.
 */
export function saveAfterEachCall(options: SavingRelayOptions): ToolRelay {
  const { relay } = options
  return {
    page: relay.page,
    referencePages: relay.referencePages,
    listTools: () => relay.listTools(),
    callTool: async (name, input, callOptions) => {
      try {
        return await relay.callTool(name, input, callOptions)
      } finally {
        await options.save().catch((error: unknown) => options.onSaveError?.(error))
      }
    },
  }
}
