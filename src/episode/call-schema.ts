// Zod schemas of calls.jsonl and events.jsonl rows (environment.md §2.8–§2.9); results are checked by result-schemas.ts.
import * as z from 'zod'
import { ProducerSchema, TOOL_NAMES } from './manifest-schema.ts'

/** Human-only commands, recorded with `actor: "human"` (§4.7). */
export const HUMAN_COMMAND_NAMES = ['edit_poses', 'set_camera'] as const

export const CallNameSchema = z.enum([...TOOL_NAMES, ...HUMAN_COMMAND_NAMES])

/** The error codes of §4.4. */
export const ErrorCodeSchema = z.enum([
  'cancelled', 'busy', 'unsupported_capability', 'episode_ended', 'disabled', 'unstable_physics',
  'historical_edit', 'invalid_argument',
])

export const CallSchema = z.strictObject({
  /** Row position, 0-based. */
  index: z.int().min(0),
  /** `call-<index>`, unique. */
  id: z.string().min(1),
  name: CallNameSchema,
  /** Deep copy of the input as received. */
  arguments: z.record(z.string(), z.unknown()),
  /** ISO-8601 UTC (`toISOString()` form); must parse. */
  timestamp: z.string(),
  actor: z.enum(['agent', 'human']),
  producer: ProducerSchema,
  /** `states.length` when the call started. */
  before_index: z.int().min(0),
  /** `states.length` when the call ended. */
  state_index: z.int().min(0),
  trace_start: z.int().min(0),
  trace_end: z.int().min(0),
  sim_start: z.number(),
  sim_end: z.number(),
  steps: z.int().min(0),
  status: z.enum(['completed', 'error']),
  /** Stored form of the result (images as `observation` references); completed calls only. */
  result: z.record(z.string(), z.unknown()).optional(),
  /** Present iff status is `error`. */
  error: z.string().optional(),
  error_code: ErrorCodeSchema.optional(),
  cancellation: z.strictObject({ phase: z.enum(['input', 'physics']), step: z.int().min(0) }).optional(),
  /** The exact JSON text returned to the agent. */
  transport: z.string().optional(),
})

export const CallEventSchema = z.strictObject({
  index: z.int().min(0),
  call_id: z.string().min(1),
  kind: z.enum(['request', 'complete']),
  timestamp: z.string(),
  sim_time: z.number(),
})

export type Call = z.infer<typeof CallSchema>
export type CallName = z.infer<typeof CallNameSchema>
export type CallEvent = z.infer<typeof CallEventSchema>
export type ErrorCode = z.infer<typeof ErrorCodeSchema>
