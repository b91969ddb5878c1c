// The API agent: a tool-calling loop in the page over a ModelTransport (OpenAI-compatible or Anthropic); no HTTP here.
import type { AgentResult, AgentRunContext, PageAgent } from '../agent.ts'
import { type ApiAgentSpecInput, parseApiAgentSpec } from './api-agent-spec.ts'
import { createAnthropicConversation } from './anthropic-dialect.ts'
import type { DialectFactory, ModelToolCall, ToolAnswer } from './dialect.ts'
import { ApiAgentError } from './errors.ts'
import type { ModelProvider, ModelRequest, ModelTransport } from './model-transport.ts'
import { createOpenAiConversation } from './openai-dialect.ts'
import { UsageTotals } from './usage-totals.ts'

const DIALECTS: Record<ModelProvider, DialectFactory> = {
  openai: createOpenAiConversation,
  anthropic: createAnthropicConversation,
}

export interface CreateApiAgentOptions extends ApiAgentSpecInput {
  /** Carries each request to Node (a browser command) or, in tests, to a fake. */
  transport: ModelTransport
}

/**
 * An agent named `<provider>:<model>`. Each turn sends the whole conversation, runs the model's tool calls in
 * order through the page's tools and sends the answers back, until a response has no tool calls; its text (or
 * the last text seen) is the final answer. Fails with `API_AGENT_TURN_LIMIT` after `maxTurns` requests,
 * `API_AGENT_ABORTED` when the signal fires during a request, `API_AGENT_MALFORMED_RESPONSE` on a bad response;
 * an `ApiAgentError` carries what was spent so far in `spent`.
 */
export function createApiAgent(options: CreateApiAgentOptions): PageAgent {
  const { transport, ...specInput } = options
  const spec = parseApiAgentSpec(specInput)
  const name = `${spec.provider}:${spec.model}`
  return {
    name,
    async run(context: AgentRunContext): Promise<AgentResult> {
      const totals = new UsageTotals()
      try {
        return await runLoop(context, totals)
      } catch (error) {
        if (error instanceof ApiAgentError) error.spent = { usage: totals.usage, costUsd: totals.costUsd }
        throw error
      }
    },
  }

  async function runLoop(context: AgentRunContext, totals: UsageTotals): Promise<AgentResult> {
    const tools = context.tools.list()
    const known = new Set(tools.map(tool => tool.name))
    const conversation = DIALECTS[spec.provider]({ model: spec.model, maxOutputTokens: spec.maxOutputTokens, prompt: context.prompt, pages: context.pages, tools })
    let finalAnswer: string | null = null
    let model: string | null = null
    for (let turn = 1; turn <= spec.maxTurns; turn++) {
      const json = await sendUnlessAborted(transport, { provider: spec.provider, body: conversation.requestBody() }, context.signal)
      const reply = conversation.readResponse(json)
      totals.add(reply)
      model = reply.model ?? model
      if (reply.text !== null) {
        finalAnswer = reply.text
        await context.record({ type: 'message', role: 'assistant', content: reply.text })
      }
      if (reply.toolCalls.length === 0) return { finalAnswer, usage: totals.usage, costUsd: totals.costUsd, model: model ?? spec.model }
      const answers: ToolAnswer[] = []
      for (const call of reply.toolCalls) {
        context.signal.throwIfAborted()
        await context.record({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments })
        const output = await answerCall(context, call, known)
        await context.record({ type: 'tool_result', id: call.id, result: output })
        answers.push({ call, output })
      }
      for (const entry of conversation.appendToolAnswers(answers)) await context.record(entry)
    }
    throw new ApiAgentError('API_AGENT_TURN_LIMIT', `${name} was still calling tools after ${spec.maxTurns} model requests (the turn limit); raise maxTurns or check the model ends with its final JSON answer`)
  }
}

/** Arguments the model garbled and tools it invented are answered with the §4.4 error envelope it can read. */
function answerCall(context: AgentRunContext, call: ModelToolCall, known: ReadonlySet<string>): Promise<string> {
  if (call.argumentsError !== undefined) {
    return Promise.resolve(JSON.stringify({ error: `Invalid ${call.name} arguments: not a JSON object (${call.argumentsError}).`, code: 'invalid_argument' }))
  }
  if (!known.has(call.name)) {
    return Promise.resolve(JSON.stringify({ error: `Unknown tool: ${call.name}. Available tools: ${[...known].join(', ')}.`, code: 'invalid_argument' }))
  }
  return context.tools.call(call.name, call.arguments)
}

/** The transport's answer, or `API_AGENT_ABORTED` as soon as the signal fires (a browser command cannot be cancelled). */
function sendUnlessAborted(transport: ModelTransport, request: ModelRequest, signal: AbortSignal): Promise<unknown> {
  const aborted = () => new ApiAgentError('API_AGENT_ABORTED', `stopped waiting for the ${request.provider} model: ${reasonOf(signal)}`, { cause: signal.reason })
  if (signal.aborted) return Promise.reject(aborted())
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(aborted())
    signal.addEventListener('abort', onAbort, { once: true })
    transport.send(request, { signal }).then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason
  return reason instanceof Error ? reason.message : String(reason)
}
