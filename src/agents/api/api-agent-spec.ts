// Parses an API agent's name (`openai:<model>`, `anthropic:<model>`) and its limits; no model calls here.
import * as z from 'zod'
import { ApiAgentError } from './errors.ts'
import { MODEL_PROVIDERS } from './model-transport.ts'

/** Model requests per run before the run fails with `API_AGENT_TURN_LIMIT` (one request = one turn). */
export const API_AGENT_MAX_TURNS = 100
/** Output tokens allowed per request (`max_completion_tokens` / `max_tokens`). */
export const API_AGENT_MAX_OUTPUT_TOKENS = 8192

/** What `createApiAgent` needs besides the transport; limits default to the constants above. */
export const ApiAgentSpecSchema = z.strictObject({
  provider: z.enum(MODEL_PROVIDERS),
  model: z.string().min(1),
  maxTurns: z.number().int().min(1).default(API_AGENT_MAX_TURNS),
  maxOutputTokens: z.number().int().min(1).default(API_AGENT_MAX_OUTPUT_TOKENS),
})
export type ApiAgentSpec = z.infer<typeof ApiAgentSpecSchema>
export type ApiAgentSpecInput = z.input<typeof ApiAgentSpecSchema>

const NAME_PATTERN = /^(openai|anthropic):(.+)$/

/** True when `name` selects an API agent (`openai:…` or `anthropic:…`). */
export function isApiAgentName(name: string): boolean {
  return NAME_PATTERN.test(name)
}

/**
 * `openai:gpt-4.1` → `{provider: 'openai', model: 'gpt-4.1', …limits}`. Only the first colon splits, so model
 * names with colons (`openai:llama3:8b` for local servers) keep theirs. Throws `API_AGENT_BAD_SPEC`.
 */
export function parseApiAgentName(name: string, limits: { maxTurns?: number; maxOutputTokens?: number } = {}): ApiAgentSpec {
  const match = NAME_PATTERN.exec(name)
  if (match === null || match[2]!.trim() === '') {
    throw new ApiAgentError('API_AGENT_BAD_SPEC', `agent "${name}" is not an API agent name; use openai:<model> (OpenAI-compatible Chat Completions) or anthropic:<model> (Anthropic Messages)`)
  }
  return parseApiAgentSpec({ provider: match[1] === 'openai' ? 'openai' : 'anthropic', model: match[2]!, ...limits })
}

/** Validates a spec object (limits are whole numbers ≥ 1); throws `API_AGENT_BAD_SPEC` naming the field. */
export function parseApiAgentSpec(input: unknown): ApiAgentSpec {
  const parsed = ApiAgentSpecSchema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new ApiAgentError('API_AGENT_BAD_SPEC', `API agent spec: ${issue?.path.join('.') || 'spec'}: ${issue?.message ?? 'invalid'}`)
}
