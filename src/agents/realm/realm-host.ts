// Page side: the harness's end of one agent run in a realm. It sends the agent its prompt, pages and tool list,
// answers its requests (tools from the page's registry, records and model requests through the harness's own
// services, bound to the sample by the harness, never by the realm) and turns its last word into a result or an error.
import type { AgentResult, AgentToolInfo, ConversationEntry } from '../agent.ts'
import type { ModelRequest, ModelTransport } from '../api/index.ts'
import { agentResultOf, moduleLoadFailure } from '../define-agent.ts'
import { AgentFailure, AgentRealmError } from './errors.ts'
import type { RealmInit, RealmRequest } from './messages.ts'
import type { AgentRealm, RealmEvent } from './realm-frame.ts'

/** What the harness lends one run: the sample's tools, its record and, for an API agent only, the model transport. */
export interface RealmServices {
  listTools(): AgentToolInfo[]
  invokeTool(name: string, input: unknown, options: { signal: AbortSignal }): Promise<string>
  record(entry: ConversationEntry): Promise<void>
  /** Absent for every agent but an API agent: its model requests are refused. */
  models?: ModelTransport | undefined
  /**
   * Record each tool call and its answer here, on the harness side, with the conversation id this gives the n-th
   * call (0-based). User modules: a module cannot leave a call out of conversation.jsonl. The replay agent: the same
   * records it would write, one message per call instead of three. Undefined: the agent records its own (API agents).
   */
  recordToolCalls?: ((index: number) => string) | undefined
  /** Aborted at the time limit or when the run stops; the realm is told, and no request is served after it. */
  signal: AbortSignal
}

/**
 * Runs the realm's agent once: resolves with its normalised result, rejects with an AgentFailure (what it threw,
 * named as it named it) or the realm's own AgentRealmError. The caller races it against its time limit and disposes
 * the realm either way.
 */
export async function runAgentInRealm(realm: AgentRealm, init: Omit<RealmInit, 'tools'>, services: RealmServices): Promise<AgentResult> {
  try {
    await realm.ready
  } catch (error) {
    // A module that throws as it is evaluated: named as a module that failed to load always was.
    if (error instanceof AgentRealmError && error.code === 'AGENT_REALM_LOAD_FAILED' && init.agent.kind === 'module') {
      throw new AgentRealmError('AGENT_REALM_LOAD_FAILED', moduleLoadFailure(init.agent.source, error.message), { cause: error })
    }
    throw error
  }
  return new Promise<AgentResult>((resolve, reject) => {
    let settled = false
    let toolCalls = 0
    const { signal } = services
    const onAbort = () => realm.post({ type: 'abort', reason: reasonOf(signal.reason) })
    signal.addEventListener('abort', onAbort, { once: true })
    const finish = () => {
      settled = true
      signal.removeEventListener('abort', onAbort)
    }

    const serve = async (request: RealmRequest): Promise<unknown> => {
      switch (request.kind) {
        case 'tool': {
          if (services.recordToolCalls === undefined) return services.invokeTool(request.name, request.input, { signal })
          const id = services.recordToolCalls(toolCalls++)
          await services.record({ type: 'tool_call', id, name: request.name, arguments: request.input })
          const result = await services.invokeTool(request.name, request.input, { signal })
          await services.record({ type: 'tool_result', id, result })
          return result
        }
        case 'record':
          return services.record(request.entry)
        case 'model':
          if (services.models === undefined) throw new Error('this agent makes no model requests: only API agents (openai:<model>, anthropic:<model>) do')
          return services.models.send(request.request as ModelRequest, { signal })
      }
    }

    realm.listen((event: RealmEvent) => {
      switch (event.type) {
        case 'request': {
          const { id } = event
          if (settled || signal.aborted) {
            realm.post({ type: 'reply', id, ok: false, error: 'the agent\'s run has ended' })
            return
          }
          serve(event.request as RealmRequest).then(
            value => realm.post({ type: 'reply', id, ok: true, value: value ?? null }),
            (error: unknown) => realm.post({ type: 'reply', id, ok: false, error: reasonOf(error) }),
          )
          return
        }
        case 'invalid':
          if (event.id !== null) realm.post({ type: 'reply', id: event.id, ok: false, error: `not a message of the agent protocol: ${event.problem}` })
          return
        case 'done':
          if (settled) return
          finish()
          resolve(agentResultOf(event.result))
          return
        case 'failed':
          if (settled) return
          finish()
          reject(new AgentFailure(event.failure))
      }
    })
    realm.post({ type: 'init', init: { ...init, tools: services.listTools() } })
    if (signal.aborted) onAbort()
  })
}

/** An error's text as it crosses to the realm (errors of browser commands arrive as plain objects with a message). */
function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message
  if (error !== null && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message)
  return String(error)
}
