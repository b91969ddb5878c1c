// The Node side of ModelTransport: validates a page's model request and POSTs it to the provider with the key.
import { type ModelRequest, ModelRequestSchema } from '../agents/api/index.ts'
import { LlmError } from './errors.ts'
import { postJson } from './post-json.ts'
import { resolveProviderEndpoint } from './provider-config.ts'
import { readProviderEnv } from './provider-env.ts'

export interface ModelRequestOptions {
  /** Where keys and base URLs are read (default `readProviderEnv()`: exported variables over `.env`). */
  env?: Record<string, string | undefined>
  /** Limit of one attempt in ms (default `LLM_REQUEST_TIMEOUT_MS`). */
  timeoutMs?: number
  /** Retries on 408/409/429/5xx and network failures (default `LLM_MAX_RETRIES`). */
  maxRetries?: number
  /** First backoff in ms (default `LLM_RETRY_BASE_DELAY_MS`), doubled per retry unless the provider says `retry-after`. */
  retryBaseDelayMs?: number
  signal?: AbortSignal
  fetch?: typeof fetch
}

/**
 * Sends `request` (`{provider: 'openai' | 'anthropic', body}`, as the page's API agent built it) and resolves to
 * the provider's response JSON. This is what the plugin registers as the browser command behind the page's
 * `ModelTransport`, so keys never reach the page. Throws `LlmError` (`LLM_BAD_REQUEST`, `LLM_MISSING_KEY`,
 * `LLM_HTTP_ERROR` with `status`, `LLM_TIMEOUT`, `LLM_NETWORK`, `LLM_INVALID_RESPONSE`); messages never hold the key.
 */
export async function modelRequest(request: unknown, options: ModelRequestOptions = {}): Promise<unknown> {
  const parsed = ModelRequestSchema.safeParse(request)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new LlmError('LLM_BAD_REQUEST', `model request ${issue?.path.join('.') || ''}: ${issue?.message ?? 'invalid'}; expected {provider: "openai" | "anthropic", body: {model, …}}`)
  }
  const valid: ModelRequest = parsed.data
  const endpoint = resolveProviderEndpoint(valid.provider, options.env ?? readProviderEnv())
  return postJson({
    url: endpoint.url,
    headers: endpoint.headers,
    body: valid.body,
    label: valid.provider === 'openai' ? `OpenAI-compatible server (model ${valid.body.model})` : `Anthropic (model ${valid.body.model})`,
    secrets: [endpoint.apiKey],
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    retryBaseDelayMs: options.retryBaseDelayMs,
    signal: options.signal,
    fetch: options.fetch,
  })
}
