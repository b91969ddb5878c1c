// Call, event and trace-membership rules of §2.8–§2.10 and §2.16 on an in-memory episode; no frame contents.
import { resultValidator } from './episode-schema.ts'
import { EpisodeError } from './errors.ts'
import { HUMAN_COMMAND_NAMES } from './call-schema.ts'
import type { Call } from './call-schema.ts'
import type { Episode } from './episode.ts'

const CALLS = 'calls.jsonl'
const EVENTS = 'events.jsonl'
/** ISO-8601 date-time with a UTC designator or offset (`toISOString()` form is the usual case). */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
const HUMAN_ONLY: ReadonlySet<string> = new Set(HUMAN_COMMAND_NAMES)

/** Checks call rows (including results), trace-frame ownership and the request/complete event pairs. */
export function validateCalls(episode: Episode, source: string): void {
  const byId = new Map<string, Call>()
  episode.calls.forEach((call, position) => {
    validateCall(call, position, episode, source)
    if (byId.has(call.id)) {
      throw new EpisodeError('EPISODE_CALL', `call id "${call.id}" is used twice; call ids must be unique.`, { source, member: `${CALLS}[${position}].id` })
    }
    byId.set(call.id, call)
  })
  validateTraceOwnership(episode, byId, source)
  validateEvents(episode, byId, source)
}

function validateCall(call: Call, position: number, episode: Episode, source: string): void {
  const at = (field: string) => ({ source, member: `${CALLS}[${position}].${field}` })
  if (call.index !== position) {
    throw new EpisodeError('EPISODE_CALL', `call "${call.id}" has index ${call.index} but is row ${position}; a call's index is its 0-based row position.`, at('index'))
  }
  if (HUMAN_ONLY.has(call.name) && call.actor !== 'human') {
    throw new EpisodeError('EPISODE_CALL', `"${call.name}" is a human-only command but actor is "${call.actor}"; record it with actor "human".`, at('actor'))
  }
  assertTimestamp(call.timestamp, at('timestamp'))
  const stateCount = episode.states.length
  for (const field of ['before_index', 'state_index'] as const) {
    if (call[field] > stateCount) {
      throw new EpisodeError('EPISODE_REFERENCE', `${field} ${call[field]} references a state beyond the ${stateCount} committed states; a call may only reference existing states.`, at(field))
    }
  }
  if (call.trace_start > call.trace_end || call.trace_end > episode.trajectory.length) {
    throw new EpisodeError('EPISODE_REFERENCE', `trace range [${call.trace_start}, ${call.trace_end}) is not a valid reference into the ${episode.trajectory.length} trace frames; need trace_start ≤ trace_end ≤ trajectory length.`, at('trace_end'))
  }
  const isError = call.status === 'error'
  if (isError !== (call.error !== undefined)) {
    throw new EpisodeError(
      'EPISODE_CALL',
      isError ? 'status is "error" but the error message is missing; failed calls must carry `error`.' : 'an error message is present but status is "completed"; set status "error" or drop `error`.',
      at(isError ? 'error' : 'status'),
    )
  }
  if (!isError) validateResult(call, position, episode, source)
}

function validateResult(call: Call, position: number, episode: Episode, source: string): void {
  const member = `${CALLS}[${position}].result`
  if (call.result === undefined) {
    throw new EpisodeError('EPISODE_RESULT_SCHEMA', `completed call "${call.id}" (${call.name}) has no result; completed calls store their JSON result.`, { source, member })
  }
  const check = resultValidator(call.name).check(call.result)
  if (!check.ok) {
    const issue = check.issues[0]
    throw new EpisodeError('EPISODE_RESULT_SCHEMA', `the ${call.name} result fails the results schema at "${issue?.path ?? ''}": ${issue?.message ?? 'invalid'}. Store the tool's result as returned (images as observation references).`, { source, member })
  }
  for (const name of imageReferences(call.result)) {
    if (!episode.observations.has(name)) {
      throw new EpisodeError('EPISODE_REFERENCE', `image result references observation "${name}", which is not in the archive; store the PNG as observations/${name}.`, { source, member })
    }
  }
}

/** Every `observation` of a `{type: "image"}` node anywhere in a stored result (§2.10). */
function imageReferences(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) imageReferences(item, out)
  } else if (typeof value === 'object' && value !== null) {
    const entries = new Map<string, unknown>(Object.entries(value))
    const observation = entries.get('observation')
    if (entries.get('type') === 'image' && typeof observation === 'string') out.push(observation)
    for (const item of entries.values()) imageReferences(item, out)
  }
  return out
}

function validateTraceOwnership(episode: Episode, byId: ReadonlyMap<string, Call>, source: string): void {
  episode.trajectory.forEach((frame, k) => {
    const member = `frames.jsonl trajectory[${k}].call_id`
    const call = byId.get(frame.call_id)
    if (call === undefined) {
      throw new EpisodeError('EPISODE_TRAJECTORY', `trace frame ${k} names unknown call "${frame.call_id}"; every trace frame belongs to a recorded call.`, { source, member })
    }
    if (k < call.trace_start || k >= call.trace_end) {
      throw new EpisodeError('EPISODE_TRAJECTORY', `trace frame ${k} lies outside its call "${call.id}" range [${call.trace_start}, ${call.trace_end}).`, { source, member })
    }
  })
}

function validateEvents(episode: Episode, byId: ReadonlyMap<string, Call>, source: string): void {
  const kinds = new Map<string, string[]>()
  episode.events.forEach((event, position) => {
    const at = (field: string) => ({ source, member: `${EVENTS}[${position}].${field}` })
    if (event.index !== position) {
      throw new EpisodeError('EPISODE_EVENT', `event has index ${event.index} but is row ${position}; an event's index is its row position.`, at('index'))
    }
    if (!byId.has(event.call_id)) {
      throw new EpisodeError('EPISODE_EVENT', `event names unknown call "${event.call_id}"; events must belong to recorded calls.`, at('call_id'))
    }
    assertTimestamp(event.timestamp, at('timestamp'), 'EPISODE_EVENT')
    const seen = kinds.get(event.call_id) ?? []
    seen.push(event.kind)
    kinds.set(event.call_id, seen)
  })
  for (const call of episode.calls) {
    const seen = kinds.get(call.id) ?? []
    if (seen.length !== 2 || seen[0] !== 'request' || seen[1] !== 'complete') {
      throw new EpisodeError('EPISODE_EVENT', `call "${call.id}" has events [${seen.join(', ')}]; every call needs exactly a request event then a complete event.`, { source, member: EVENTS })
    }
  }
}

function assertTimestamp(value: string, where: { source: string, member: string }, code: 'EPISODE_CALL' | 'EPISODE_EVENT' = 'EPISODE_CALL'): void {
  if (!ISO_TIMESTAMP.test(value) || !Number.isFinite(Date.parse(value))) {
    throw new EpisodeError(code, `timestamp "${value}" is not a parseable ISO-8601 date-time (expected the form 2025-01-01T00:00:00.000Z).`, where)
  }
}
