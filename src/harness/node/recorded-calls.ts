// Reads a sample's tool calls back from the conversation.jsonl Node wrote: each `tool_call` with the `tool_result`
// that answered it, in order. Refuses (with the line and why) any record it could only read by guessing; replays
// nothing and touches no file or world.
import * as z from 'zod'
import { splitJsonLines } from '../../shared/json-lines.ts'

/** One recorded call and its answer, as Node wrote them (`timestamp`s are Node's, ISO). */
export interface RecordedCall {
  /** 1-based line of the `tool_call` record in conversation.jsonl. */
  line: number
  id: string
  name: string
  /** As recorded; absent when the caller passed none (JSON drops `undefined`). */
  arguments: unknown
  calledAt: string
  /** Undefined only for a call `mayGoUnanswered` allowed to go without one. */
  answer: { line: number; result: unknown; answeredAt: string } | undefined
}

export type RecordedCalls = { ok: true; calls: RecordedCall[] } | { ok: false; reason: string; toolCalls: number }

const IsoTimestamp = z.string().refine(text => !Number.isNaN(Date.parse(text)), 'not a timestamp')
// Loose: the record is the page's entry plus Node's timestamp; fields beyond these say nothing about the world.
const ToolCallRecordSchema = z.looseObject({ timestamp: IsoTimestamp, type: z.literal('tool_call'), id: z.string(), name: z.string(), arguments: z.unknown().optional() })
const ToolResultRecordSchema = z.looseObject({ timestamp: IsoTimestamp, type: z.literal('tool_result'), id: z.string(), result: z.unknown() })

export interface ReadRecordedCallsOptions {
  /**
   * True for a call that can go unanswered in the record without leaving the world in doubt: one the page's tool
   * registry refused before the world saw it (a name it never registered), which leaves no `tool_result`.
   */
  mayGoUnanswered?: (call: { name: string; arguments: unknown }) => boolean
}

/**
 * The calls of `conversation` (the text of a sample's conversation.jsonl) in record order. Each `tool_call` must be
 * answered by the next tool record, a `tool_result` with its id, before another call starts; a line that is not JSON,
 * a malformed tool record, a result that answers no open call, calls that overlap or a call left without its answer
 * give `ok: false` with the reason (the world they drove cannot be known).
 */
export function readRecordedCalls(conversation: string, options: ReadRecordedCallsOptions = {}): RecordedCalls {
  const calls: RecordedCall[] = []
  let open: RecordedCall | undefined
  let toolCalls = 0
  const refuse = (reason: string): RecordedCalls => ({ ok: false, reason: `conversation.jsonl ${reason}`, toolCalls })
  for (const { line, value, error } of splitJsonLines(conversation)) {
    if (error !== undefined) return refuse(`line ${line} is not JSON (${error.message}): a torn record`)
    const type = value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined
    if (type === 'tool_call') {
      toolCalls++
      const parsed = ToolCallRecordSchema.safeParse(value)
      if (!parsed.success) return refuse(`line ${line}: a tool_call record without ${describeIssues(parsed.error)}`)
      if (open !== undefined) {
        if (!isUnanswerable(open, options)) return refuse(`line ${line}: call ${JSON.stringify(parsed.data.id)} (${parsed.data.name}) started before call ${JSON.stringify(open.id)} (${open.name}, line ${open.line}) was answered: overlapping calls reach the world in an order the record does not hold`)
        open = undefined
      }
      const call: RecordedCall = { line, id: parsed.data.id, name: parsed.data.name, arguments: parsed.data.arguments, calledAt: parsed.data.timestamp, answer: undefined }
      calls.push(call)
      open = call
    } else if (type === 'tool_result') {
      const parsed = ToolResultRecordSchema.safeParse(value)
      if (!parsed.success) return refuse(`line ${line}: a tool_result record without ${describeIssues(parsed.error)}`)
      if (open === undefined || open.id !== parsed.data.id) {
        return refuse(`line ${line}: the tool_result of ${JSON.stringify(parsed.data.id)} answers no open call${open === undefined ? '' : ` (call ${JSON.stringify(open.id)} of line ${open.line} is open)`}: a call the record lacks`)
      }
      open.answer = { line, result: parsed.data.result, answeredAt: parsed.data.timestamp }
      open = undefined
    }
  }
  if (open !== undefined && !isUnanswerable(open, options)) {
    return refuse(`line ${open.line}: call ${JSON.stringify(open.id)} (${open.name}) has no recorded result: whether and how it changed the world is unknown`)
  }
  return { ok: true, calls }
}

function isUnanswerable(call: RecordedCall, options: ReadRecordedCallsOptions): boolean {
  return options.mayGoUnanswered?.({ name: call.name, arguments: call.arguments }) ?? false
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map(issue => `a valid ${issue.path.join('.') || 'record'} (${issue.message})`).join(', ')
}
