// Error type and codes of agent realms (the sandboxed frames page agents run in); no realm logic here.
import { AwbError, type AwbErrorOptions } from '../../shared/errors.ts'
import type { ApiAgentSpent } from '../api/index.ts'

/** Every code an `AgentRealmError` can carry, with what it stands for. */
export const AGENT_REALM_ERROR_CODES = {
  AGENT_REALM_NOT_STARTED: 'the realm\'s frame did not load, or its code did not answer, within the start limit',
  AGENT_REALM_LOAD_FAILED: 'the realm\'s code threw while it was evaluated (an agent module that throws at load, say)',
  AGENT_REALM_BUNDLE_FAILED: 'the Node side could not bundle the realm\'s code (an agent module that does not build)',
  AGENT_REALM_FORBIDDEN_IMPORT: 'an agent module imports Vitest, which agents cannot reach from their realm',
  AGENT_REALM_AGENT_FAILED: 'the agent threw; the error keeps the agent\'s own name and message',
} as const

export type AgentRealmErrorCode = keyof typeof AGENT_REALM_ERROR_CODES

export class AgentRealmError extends AwbError {
  declare readonly code: AgentRealmErrorCode

  constructor(code: AgentRealmErrorCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}

/**
 * What an agent threw in its realm, rebuilt in the harness. It carries the agent's own error name, so a run records
 * `TypeError: …` or `ApiAgentError: …` exactly as when agents ran in the page, and an API agent's spend.
 */
export class AgentFailure extends AgentRealmError {
  /** What an API agent had spent when it failed (its ApiAgentError's `spent`), or null. */
  readonly spent: ApiAgentSpent | null
  /** The agent's own error code (an ApiAgentError's, say), or null. */
  readonly agentCode: string | null
  /** True when the agent threw something other than an Error (a string): it is described by its text alone. */
  readonly thrownValue: boolean

  constructor(failure: { name: string | null; message: string; code: string | null; spent: ApiAgentSpent | null }) {
    super('AGENT_REALM_AGENT_FAILED', failure.message)
    if (failure.name !== null) this.name = failure.name
    this.spent = failure.spent
    this.agentCode = failure.code
    this.thrownValue = failure.name === null
  }
}
