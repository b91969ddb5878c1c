// Reads a provider's endpoint, key and headers from the environment (parsed once, keys never echoed); no HTTP here.
import * as z from 'zod'
import type { ModelProvider } from '../agents/api/index.ts'
import { LlmError } from './errors.ts'

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'
/** The Messages API version header every request carries. */
export const ANTHROPIC_VERSION = '2023-06-01'

/** The variables each provider reads: base URL (optional) and API key (required). */
export const PROVIDER_VARIABLES = {
  openai: { baseUrl: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' },
  anthropic: { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' },
} as const satisfies Record<ModelProvider, { baseUrl: string; apiKey: string }>

/** Empty strings count as unset, as shells and `.env` files often leave them. */
const OptionalText = z.string().optional().transform(value => (value === undefined || value.trim() === '' ? undefined : value.trim()))

const ProviderEnvSchema = z.looseObject({
  OPENAI_BASE_URL: OptionalText,
  OPENAI_API_KEY: OptionalText,
  ANTHROPIC_BASE_URL: OptionalText,
  ANTHROPIC_API_KEY: OptionalText,
})

export interface ProviderEndpoint {
  /** The full URL to POST to. */
  url: string
  /** Authentication and version headers; contains the key, so never log it. */
  headers: Record<string, string>
  /** The key itself, for redacting it from provider messages. */
  apiKey: string
}

/**
 * The endpoint of `provider`: `OPENAI_BASE_URL` (default `https://api.openai.com/v1`) + `/chat/completions` with
 * `Authorization: Bearer $OPENAI_API_KEY`, or `ANTHROPIC_BASE_URL` (default `https://api.anthropic.com`) +
 * `/v1/messages` with `x-api-key: $ANTHROPIC_API_KEY` and `anthropic-version`. Throws `LLM_MISSING_KEY` naming
 * the variable, `LLM_BAD_ENV` for a base URL that is not http(s).
 */
export function resolveProviderEndpoint(provider: ModelProvider, env: Record<string, string | undefined>): ProviderEndpoint {
  const values = ProviderEnvSchema.parse(env)
  const names = PROVIDER_VARIABLES[provider]
  const apiKey = values[names.apiKey]
  if (apiKey === undefined) {
    throw new LlmError('LLM_MISSING_KEY', `${names.apiKey} is not set; export it (or put it in .env) to use ${provider}:<model> agents`)
  }
  const base = baseUrlOf(values[names.baseUrl] ?? (provider === 'openai' ? OPENAI_DEFAULT_BASE_URL : ANTHROPIC_DEFAULT_BASE_URL), names.baseUrl)
  switch (provider) {
    case 'openai':
      return { url: `${base}/chat/completions`, headers: { authorization: `Bearer ${apiKey}` }, apiKey }
    case 'anthropic':
      return { url: `${base}/v1/messages`, headers: { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }, apiKey }
    default: {
      const unknown: never = provider
      throw new LlmError('LLM_BAD_REQUEST', `unknown provider ${String(unknown)}`)
    }
  }
}

function baseUrlOf(value: string, variable: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new LlmError('LLM_BAD_ENV', `${variable}="${value}" is not a URL; set it to e.g. http://127.0.0.1:8000/v1 or unset it for the default`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LlmError('LLM_BAD_ENV', `${variable}="${value}" must be an http:// or https:// URL`)
  }
  return value.replace(/\/+$/, '')
}
