// Token usage and cost as a provider's response reports them, read in one place for both dialects: the page's
// agent loop and the Node side (which keeps its own totals, so a failed or timed-out page loses none).
import * as z from 'zod'
import type { ModelProvider } from './model-transport.ts'

/** Chat Completions `usage`; `cost` is reported by some OpenAI-compatible routers (e.g. OpenRouter), in USD. */
export const OpenAiUsageSchema = z.looseObject({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
  cost: z.number().nullish(),
})

/** Messages API `usage`. */
export const AnthropicUsageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
})

/** One response's spend: counts under the runner's names, and the cost only when the provider states it. */
export interface ResponseUsage {
  usage: Record<string, number>
  costUsd: number | null
}

export function openAiUsage(usage: z.infer<typeof OpenAiUsageSchema> | null | undefined): ResponseUsage {
  if (usage == null) return { usage: {}, costUsd: null }
  return {
    usage: compact({
      input_tokens: usage.prompt_tokens,
      output_tokens: usage.completion_tokens,
      cached_input_tokens: usage.prompt_tokens_details?.cached_tokens ?? undefined,
      reasoning_output_tokens: usage.completion_tokens_details?.reasoning_tokens ?? undefined,
    }),
    costUsd: usage.cost ?? null,
  }
}

export function anthropicUsage(usage: z.infer<typeof AnthropicUsageSchema> | null | undefined): ResponseUsage {
  // The Messages API reports no cost; it is never estimated.
  if (usage == null) return { usage: {}, costUsd: null }
  return {
    usage: compact({
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? undefined,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? undefined,
    }),
    costUsd: null,
  }
}

/** The spend a raw response JSON reports (nothing when it has no readable `usage`). */
export function responseUsage(provider: ModelProvider, json: unknown): ResponseUsage {
  const raw = json !== null && typeof json === 'object' ? (json as { usage?: unknown }).usage : undefined
  if (provider === 'openai') {
    const parsed = OpenAiUsageSchema.nullish().safeParse(raw)
    return openAiUsage(parsed.success ? parsed.data : null)
  }
  const parsed = AnthropicUsageSchema.nullish().safeParse(raw)
  return anthropicUsage(parsed.success ? parsed.data : null)
}

function compact(values: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, number] => typeof entry[1] === 'number'))
}
