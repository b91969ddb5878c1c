// Public entry of the Node-side model transport: one validated model request → provider HTTP → response JSON.
export { modelRequest, type ModelRequestOptions } from './model-request.ts'
export {
  ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_VERSION, OPENAI_DEFAULT_BASE_URL, PROVIDER_VARIABLES, resolveProviderEndpoint, type ProviderEndpoint,
} from './provider-config.ts'
export { readProviderEnv, type ProviderEnvOptions } from './provider-env.ts'
export { backoffMs, LLM_MAX_RETRIES, LLM_REQUEST_TIMEOUT_MS, LLM_RETRY_BASE_DELAY_MS, LLM_RETRY_MAX_DELAY_MS, postJson, type PostJsonOptions } from './post-json.ts'
export { LLM_ERROR_CODES, LlmError, type LlmErrorCode, type LlmErrorOptions } from './errors.ts'
