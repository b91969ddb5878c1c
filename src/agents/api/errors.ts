// Error type and codes of the API agents' loop in the page; no loop logic here.
import { AwbError, type AwbErrorOptions } from '../../shared/errors.ts'

/** Every code an `ApiAgentError` can carry, with what it stands for. */
export const API_AGENT_ERROR_CODES = {
  API_AGENT_BAD_SPEC: 'the agent name is not `openai:<model>` or `anthropic:<model>`, or a limit is out of range',
  API_AGENT_MALFORMED_RESPONSE: 'the provider answered JSON that is not a Chat Completions / Messages response',
  API_AGENT_TURN_LIMIT: 'the model was still calling tools when the turn limit was reached',
  API_AGENT_ABORTED: 'the run was aborted (time limit) while waiting for the model',
} as const

export type ApiAgentErrorCode = keyof typeof API_AGENT_ERROR_CODES

/** Usage and cost summed up to the failure, so a failed run still reports what it spent. */
export interface ApiAgentSpent {
  usage: Record<string, number> | null
  costUsd: number | null
}

export class ApiAgentError extends AwbError {
  declare readonly code: ApiAgentErrorCode
  /** What the run had spent when it failed; null when the error came before any request. */
  spent: ApiAgentSpent | null = null

  constructor(code: ApiAgentErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}
