// Tool failures and the §4.4 error envelope: message → error code mapping; no tool behaviour here.
import type { ErrorCode } from '../episode/index.ts'
import { WorldError } from './errors.ts'

/** Where a cancelled call stopped (§2.8 `cancellation`). */
export interface Cancellation {
  phase: 'input' | 'physics'
  step: number
}

/**
 * A failure an agent reads as `{"error": message, "code": …}`. Messages are the reference runtime's
 * (§4.4 "Known messages"), because the envelope code is derived from the message text.
 */
export class ToolError extends WorldError {
  readonly cancellation: Cancellation | undefined

  constructor(message: string, options: { cancellation?: Cancellation, cause?: unknown } = {}) {
    super('WORLD_TOOL_FAILED', message, options.cause === undefined ? {} : { cause: options.cause })
    this.cancellation = options.cancellation
  }
}

/** First match wins, in the order of §4.4. */
const ERROR_CODE_RULES: readonly [RegExp, ErrorCode][] = [
  [/cancelled/i, 'cancelled'],
  [/running|Wait for/, 'busy'],
  [/Unsupported capability/, 'unsupported_capability'],
  [/ended/, 'episode_ended'],
  [/disabled|Tool is disabled/, 'disabled'],
  [/unstable|Non-finite/, 'unstable_physics'],
  [/history|latest/, 'historical_edit'],
]

/** The §4.4 error code of a failure message. */
export function errorCodeOf(message: string): ErrorCode {
  for (const [pattern, code] of ERROR_CODE_RULES) if (pattern.test(message)) return code
  return 'invalid_argument'
}

/** The message an agent sees for any thrown value (never a stack trace). */
export function failureMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

/** The §4.4 failure envelope as the exact JSON text returned to the agent. */
export function errorEnvelope(message: string): string {
  return JSON.stringify({ error: message, code: errorCodeOf(message) })
}

/** Answer of a superseded registration (§4.4); such calls are not recorded. */
export const EXPIRED_REGISTRATION_MESSAGE = 'This tool registration has expired.'

export const MESSAGES = {
  finite: 'All numeric inputs must be finite.',
  busy: 'Operation is running.',
  cancelled: 'Operation cancelled.',
  zeroQuaternion: 'Quaternion cannot be zero.',
  twoObjects: 'At least two objects are required.',
  unknownGroup: 'Unknown group.',
  noRenderer: 'Unsupported capability: capture_scene',
  force: 'Force requires enabled physics and magnitude <=20 N.',
  physicsDisabled: 'Physics is disabled.',
  unstable: 'Non-finite or unstable physics state.',
  outOfRange: (id: string, limit: number) => `Position out of range: ${id} would be more than ${limit} from the origin along an axis.`,
  ended: 'The episode has ended; no further calls are accepted.',
  disabled: (name: string) => `Tool is disabled: ${name}`,
  notFree: (id: string) => `Object requires an independent free joint: ${id}`,
  unknownObject: (id: string) => `Unknown object: ${id}`,
  invalidArguments: (name: string, detail: string) => `Invalid ${name} arguments: ${detail}`,
} as const
