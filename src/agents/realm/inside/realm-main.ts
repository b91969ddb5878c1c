// Realm side: the agent's end of the port. It waits for `init`, builds the agent, gives it a context whose tools,
// records and model requests are requests to the harness, and reports the result or the failure. Runs only inside
// the sandboxed frame, bundled by the Node side (src/harness/node/agent-bundle.ts) with an entry from entries/.
import type { AgentResult, AgentRunContext, PageAgent } from '../../agent.ts'
import type { ModelTransport } from '../../api/index.ts'
import { agentResultOf } from '../../define-agent.ts'
import type { HarnessMessage, RealmAgentSpec, RealmFailure, RealmMessage, RealmRequest } from '../messages.ts'
import { connectConsole } from './console-capture.ts'

/** Builds the agent `spec` names; `models` carries an API agent's requests to the harness (and on to Node). */
export type RealmAgentFactory = (spec: RealmAgentSpec, models: ModelTransport) => PageAgent

interface Waiting {
  resolve(value: unknown): void
  reject(error: Error): void
}

/** Serves one agent run over `port`: says `ready`, runs the agent on the first `init`, reports once. */
export function startRealm(port: MessagePort, createAgent: RealmAgentFactory): void {
  const post = (message: RealmMessage) => port.postMessage(message)
  connectConsole(post)
  const waiting = new Map<number, Waiting>()
  const controller = new AbortController()
  let lastId = 0
  let started = false

  const request = (body: RealmRequest) => new Promise<unknown>((resolve, reject) => {
    const id = ++lastId
    waiting.set(id, { resolve, reject })
    try {
      post({ type: 'request', id, request: body })
    } catch (error) {
      // An argument that cannot be cloned (a function, say) fails the call, as an invalid argument would.
      waiting.delete(id)
      reject(error instanceof Error ? error : new Error(String(error)))
    }
  })

  port.onmessage = (event: MessageEvent<HarnessMessage>) => {
    const message = event.data
    if (message.type === 'init') {
      if (started) return
      started = true
      void run(message.init.agent, contextOf(message.init))
    } else if (message.type === 'reply') {
      const call = waiting.get(message.id)
      if (call === undefined) return
      waiting.delete(message.id)
      if (message.ok) call.resolve(message.value)
      else call.reject(new Error(message.error))
    } else if (message.type === 'abort') {
      controller.abort(new Error(message.reason))
    }
  }
  post({ type: 'ready' })

  function contextOf(init: Extract<HarnessMessage, { type: 'init' }>['init']): AgentRunContext {
    return {
      prompt: init.prompt,
      pages: init.pages,
      signal: controller.signal,
      tools: {
        list: () => init.tools,
        call: async (name, input) => String(await request({ kind: 'tool', name, input })),
      },
      record: async (entry) => {
        await request({ kind: 'record', entry })
      },
    }
  }

  async function run(spec: RealmAgentSpec, context: AgentRunContext): Promise<void> {
    let result: AgentResult
    try {
      const agent = createAgent(spec, { send: modelRequest => request({ kind: 'model', request: modelRequest }) })
      result = agentResultOf(await agent.run(context))
    } catch (error) {
      post({ type: 'failed', failure: failureOf(error) })
      return
    }
    try {
      post({ type: 'done', result })
    } catch {
      // Usage the agent reported that cannot cross the port is dropped, as a malformed one would be.
      post({ type: 'done', result: { ...result, usage: null } })
    }
  }
}

/** A thrown value as the harness describes it: an Error's name and message (and an AwbError's code, an API agent's spend). */
function failureOf(error: unknown): RealmFailure {
  if (!(error instanceof Error)) return { name: null, message: textOf(error), code: null, spent: null }
  const { code, spent } = error as Error & { code?: unknown; spent?: unknown }
  return {
    name: textOf(error.name),
    message: textOf(error.message),
    code: typeof code === 'string' ? code : null,
    // Cloned as it is: the harness checks its shape (message-schemas.ts).
    spent: spent !== null && typeof spent === 'object' ? spent as RealmFailure['spent'] : null,
  }
}

function textOf(value: unknown): string {
  try {
    return String(value)
  } catch {
    return '(a value that cannot be printed)'
  }
}
