// Error type and codes of the Node-side model transport (HTTP to the providers); no HTTP here.
import { AwbError, type AwbErrorOptions } from '../shared/errors.ts'

/** Every code an `LlmError` can carry, with what it stands for. */
export const LLM_ERROR_CODES = {
  LLM_BAD_REQUEST: 'the page sent a model request that is not {provider, body: {model, …}}',
  LLM_BAD_ENV: 'a provider environment variable (base URL) is not usable',
  LLM_MISSING_KEY: 'the provider API key variable is not set',
  LLM_HTTP_ERROR: 'the provider answered an HTTP error (after retries, when retryable)',
  LLM_TIMEOUT: 'the provider did not answer within the request timeout',
  LLM_NETWORK: 'the provider could not be reached (after retries)',
  LLM_INVALID_RESPONSE: 'the provider answered a body that is not JSON',
  LLM_ABORTED: 'the caller aborted the request',
} as const

export type LlmErrorCode = keyof typeof LLM_ERROR_CODES

export interface LlmErrorOptions extends AwbErrorOptions {
  /** HTTP status of the provider's answer, when there was one. */
  status?: number
}

export class LlmError extends AwbError {
  declare readonly code: LlmErrorCode
  readonly status: number | undefined

  constructor(code: LlmErrorCode, message: string, options: LlmErrorOptions = {}) {
    super(code, message, options)
    this.status = options.status
  }
}
