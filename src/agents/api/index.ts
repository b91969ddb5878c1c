// Public entry of the API agents (page code): OpenAI-compatible and Anthropic tool-calling loops over a ModelTransport.
export { createApiAgent, type CreateApiAgentOptions } from './api-agent.ts'
export {
  API_AGENT_MAX_OUTPUT_TOKENS, API_AGENT_MAX_TURNS, ApiAgentSpecSchema, isApiAgentName, parseApiAgentName, parseApiAgentSpec,
  type ApiAgentSpec, type ApiAgentSpecInput,
} from './api-agent-spec.ts'
export { MODEL_PROVIDERS, ModelRequestSchema, type ModelProvider, type ModelRequest, type ModelSendOptions, type ModelTransport } from './model-transport.ts'
export { splitToolOutput, type ToolImage, type ToolOutput } from './tool-output.ts'
export { API_AGENT_ERROR_CODES, ApiAgentError, type ApiAgentErrorCode, type ApiAgentSpent } from './errors.ts'
export { responseUsage, type ResponseUsage } from './provider-usage.ts'
export { UsageTotals } from './usage-totals.ts'
