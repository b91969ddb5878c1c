// Anthropic Messages: request bodies, response parsing, tool_result blocks with images; no transport here.
import * as z from 'zod'
import type { ConversationEntry } from '../agent.ts'
import type { DialectConversation, DialectStart, ModelToolCall, ModelTurn, ToolAnswer } from './dialect.ts'
import { ApiAgentError } from './errors.ts'
import { anthropicUsage, AnthropicUsageSchema } from './provider-usage.ts'
import { bytesToBase64, splitToolOutput } from './tool-output.ts'

/** Images stay inside the tool_result block, right after its text. */
const IMAGE_PLACEHOLDER = 'the image block after this text'

const BlockSchema = z.looseObject({ type: z.string() })
const TextBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() })
const ToolUseBlockSchema = z.looseObject({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.unknown() })

/** The subset of a Messages response the loop reads; the format is Anthropic's, so objects stay loose. */
const MessageResponseSchema = z.looseObject({
  model: z.string().optional(),
  content: z.array(BlockSchema),
  stop_reason: z.string().nullish(),
  usage: AnthropicUsageSchema.nullish(),
})

type Message = { role: 'user' | 'assistant'; content: unknown }

/** Starts a Messages conversation: the prompt and the reference pages (base64 image blocks) in the first user message. */
export function createAnthropicConversation(start: DialectStart): DialectConversation {
  const firstContent = [
    { type: 'text', text: start.prompt },
    ...start.pages.map(page => ({ type: 'image', source: { type: 'base64', media_type: page.mimeType, data: bytesToBase64(page.bytes) } })),
  ]
  const messages: Message[] = [{ role: 'user', content: start.pages.length === 0 ? start.prompt : firstContent }]
  const tools = start.tools.map(tool => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }))

  return {
    requestBody: () => ({ model: start.model, max_tokens: start.maxOutputTokens, messages, ...(tools.length > 0 ? { tools } : {}) }),

    readResponse(json: unknown): ModelTurn {
      const parsed = MessageResponseSchema.safeParse(json)
      if (!parsed.success) throw malformed(parsed.error, json)
      const texts: string[] = []
      const toolCalls: ModelToolCall[] = []
      for (const block of parsed.data.content) {
        if (block.type === 'text') {
          const text = TextBlockSchema.safeParse(block)
          if (!text.success) throw malformed(text.error, json)
          texts.push(text.data.text)
        } else if (block.type === 'tool_use') {
          const use = ToolUseBlockSchema.safeParse(block)
          if (!use.success) throw malformed(use.error, json)
          toolCalls.push({ id: use.data.id, name: use.data.name, arguments: use.data.input ?? {} })
        }
      }
      // The whole content goes back unchanged: the API requires thinking blocks (with signatures) to be returned.
      messages.push({ role: 'assistant', content: parsed.data.content })
      const text = texts.join('\n')
      return { text: text === '' ? null : text, toolCalls, ...anthropicUsage(parsed.data.usage), model: parsed.data.model ?? null }
    },

    appendToolAnswers(answers: readonly ToolAnswer[]): ConversationEntry[] {
      const results = answers.map(({ call, output }) => {
        const split = splitToolOutput(output, IMAGE_PLACEHOLDER)
        const content = [
          { type: 'text', text: split.text },
          ...split.images.map(image => ({ type: 'image', source: { type: 'base64', media_type: image.mimeType, data: image.data } })),
        ]
        return { type: 'tool_result', tool_use_id: call.id, content, ...(split.isError ? { is_error: true } : {}) }
      })
      messages.push({ role: 'user', content: results })
      return []
    },
  }
}

function malformed(error: z.ZodError, json: unknown): ApiAgentError {
  const issue = error.issues[0]
  const preview = JSON.stringify(json)?.slice(0, 200) ?? String(json)
  return new ApiAgentError('API_AGENT_MALFORMED_RESPONSE', `the Anthropic server answered a response that is not a Messages response (${issue?.path.join('.') || 'response'}: ${issue?.message ?? 'invalid'}); check ANTHROPIC_BASE_URL points at the Messages API. Response starts: ${preview}`)
}
