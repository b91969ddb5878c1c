// OpenAI-compatible Chat Completions: request bodies, response parsing, tool answers and images; no transport here.
import * as z from 'zod'
import type { ConversationEntry } from '../agent.ts'
import type { DialectConversation, DialectStart, ModelToolCall, ModelTurn, ToolAnswer } from './dialect.ts'
import { ApiAgentError } from './errors.ts'
import { openAiUsage, OpenAiUsageSchema } from './provider-usage.ts'
import { bytesToBase64, splitToolOutput } from './tool-output.ts'

/** Where a tool's images go: tool messages carry text only, so images follow in one user message per turn. */
const IMAGE_PLACEHOLDER = 'the user message after the tool results'

const ToolCallSchema = z.looseObject({
  id: z.string().min(1),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
})

const ContentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() })

/** The subset of a Chat Completions response the loop reads; the format is OpenAI's, so objects stay loose. */
const ChatCompletionSchema = z.looseObject({
  model: z.string().optional(),
  choices: z.array(z.looseObject({
    finish_reason: z.string().nullish(),
    message: z.looseObject({
      content: z.union([z.string(), z.array(ContentPartSchema)]).nullish(),
      tool_calls: z.array(ToolCallSchema).nullish(),
    }),
  })).min(1),
  usage: OpenAiUsageSchema.nullish(),
})

type ChatMessage = Record<string, unknown>

/** Starts a Chat Completions conversation: the prompt and the reference pages (data URLs) in the first user message. */
export function createOpenAiConversation(start: DialectStart): DialectConversation {
  const firstContent = [
    { type: 'text', text: start.prompt },
    ...start.pages.map(page => ({ type: 'image_url', image_url: { url: `data:${page.mimeType};base64,${bytesToBase64(page.bytes)}` } })),
  ]
  const messages: ChatMessage[] = [{ role: 'user', content: start.pages.length === 0 ? start.prompt : firstContent }]
  const tools = start.tools.map(tool => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }))

  return {
    // OpenAI rejects an empty `tools` array, so a page without tools sends none.
    requestBody: () => ({ model: start.model, messages, ...(tools.length > 0 ? { tools } : {}), max_completion_tokens: start.maxOutputTokens }),

    readResponse(json: unknown): ModelTurn {
      const parsed = ChatCompletionSchema.safeParse(json)
      if (!parsed.success) throw malformed(parsed.error, json)
      const message = parsed.data.choices[0]!.message
      const text = typeof message.content === 'string'
        ? message.content
        : (message.content ?? []).flatMap(part => part.type === 'text' && part.text !== undefined ? [part.text] : []).join('\n')
      const toolCalls = (message.tool_calls ?? []).map(readToolCall)
      // Only role, text and tool calls go back: provider extras (reasoning, refusal) are not part of the history.
      const assistant: ChatMessage = { role: 'assistant', content: text === '' ? null : text }
      if (message.tool_calls != null && message.tool_calls.length > 0) assistant.tool_calls = message.tool_calls.map(call => ({ id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }))
      messages.push(assistant)
      return { text: text === '' ? null : text, toolCalls, ...openAiUsage(parsed.data.usage), model: parsed.data.model ?? null }
    },

    appendToolAnswers(answers: readonly ToolAnswer[]): ConversationEntry[] {
      const imageParts: unknown[] = []
      const recorded: unknown[] = []
      for (const { call, output } of answers) {
        const split = splitToolOutput(output, IMAGE_PLACEHOLDER)
        messages.push({ role: 'tool', tool_call_id: call.id, content: split.text })
        if (split.images.length === 0) continue
        const caption = `Image${split.images.length > 1 ? 's' : ''} returned by ${call.name} (tool call ${call.id}):`
        imageParts.push({ type: 'text', text: caption })
        recorded.push({ type: 'text', text: caption })
        for (const image of split.images) {
          imageParts.push({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } })
          // The base64 is already in the tool_result record; the message record names the image only.
          recorded.push({ type: 'image', mimeType: image.mimeType, tool_call_id: call.id })
        }
      }
      if (imageParts.length === 0) return []
      messages.push({ role: 'user', content: imageParts })
      return [{ type: 'message', role: 'user', content: recorded }]
    },
  }
}

function readToolCall(call: z.infer<typeof ToolCallSchema>): ModelToolCall {
  const raw = call.function.arguments
  if (raw.trim() === '') return { id: call.id, name: call.function.name, arguments: {} }
  try {
    return { id: call.id, name: call.function.name, arguments: JSON.parse(raw) }
  } catch (error) {
    return { id: call.id, name: call.function.name, arguments: raw, argumentsError: error instanceof Error ? error.message : String(error) }
  }
}

function malformed(error: z.ZodError, json: unknown): ApiAgentError {
  const issue = error.issues[0]
  const preview = JSON.stringify(json)?.slice(0, 200) ?? String(json)
  return new ApiAgentError('API_AGENT_MALFORMED_RESPONSE', `the OpenAI-compatible server answered a response that is not a chat completion (${issue?.path.join('.') || 'response'}: ${issue?.message ?? 'invalid'}); check OPENAI_BASE_URL points at a Chat Completions API. Response starts: ${preview}`)
}
