// Node only: what a sample's test shows beside its figures in Vitest's UI and html reporter, from Node's own record of
// the sample: the final scene the harness kept (final.png), the first reference page the agent was given (from the
// verified package), and the timeline of the tool calls Node recorded (conversation.jsonl). Page code writes none of
// it: the aggregate reporter writes these annotations over whatever the page reported.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { findSample, readPage, type BenchmarkPackage } from '../../package/index.ts'
import { readRecordedCalls, type RecordedCall } from './recorded-calls.ts'

/** An annotation's attachment as Vitest 4.1 and 5 take it: the bytes inline (base64), shown as an image in the UI. */
export interface SampleAttachment {
  contentType: string
  /** Base64. Inline, so the UI and the html report show it without serving a file of the run folder. */
  body: string
}

/** A test annotation as Vitest 4.1 and 5 keep it (plugin/vitest-compat/test-record.ts writes them on the task). */
export interface AttachedAnnotation {
  type: string
  message: string
  attachment?: SampleAttachment | undefined
}

/** The most calls the timeline draws one by one; a longer conversation is summarised past this many. */
const TIMELINE_MAX_CALLS = 200

export interface SampleAttachmentsInput {
  pkg: BenchmarkPackage
  block: string
  sampleId: string
  /** The attempt's folder in the run (final.png, conversation.jsonl). */
  sampleDir: string
}

/**
 * The sample's attachments: each one left out, with the reason in its message, when its source is missing (a sample
 * that never saved a world has no final.png; a block without reference pages has none to show).
 */
export async function sampleAttachments(input: SampleAttachmentsInput): Promise<AttachedAnnotation[]> {
  return [await finalCapture(input.sampleDir), await referencePage(input), await timeline(input.sampleDir)]
}

async function finalCapture(sampleDir: string): Promise<AttachedAnnotation> {
  const bytes = await readFile(join(sampleDir, 'final.png')).catch(() => undefined)
  if (bytes === undefined) return { type: 'final_capture', message: 'no final capture: the sample saved no world' }
  return { type: 'final_capture', message: 'the final scene (capture_scene of the saved world)', attachment: { contentType: 'image/png', body: bytes.toString('base64') } }
}

async function referencePage({ pkg, block, sampleId }: SampleAttachmentsInput): Promise<AttachedAnnotation> {
  const sample = findSample(pkg, block, sampleId)
  const first = sample.pages[0]
  if (first === undefined) return { type: 'reference_page', message: `no reference pages (block ${block} gives the agent none)` }
  const bytes = await readPage(pkg, first)
  const extension = first.path.split('.').at(-1)?.toLowerCase()
  const contentType = extension === 'jpg' || extension === 'jpeg' ? 'image/jpeg' : extension === 'webp' ? 'image/webp' : 'image/png'
  return { type: 'reference_page', message: `reference page ${first.page} of ${sample.pages.length}`, attachment: { contentType, body: Buffer.from(bytes).toString('base64') } }
}

async function timeline(sampleDir: string): Promise<AttachedAnnotation> {
  const conversation = await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8').catch(() => undefined)
  if (conversation === undefined) return { type: 'timeline', message: 'no tool calls recorded' }
  // A call the page refused before its world saw it leaves no result; the timeline draws it without one.
  const recorded = readRecordedCalls(conversation, { mayGoUnanswered: () => true })
  if (!recorded.ok) return { type: 'timeline', message: `${recorded.toolCalls} tool calls; no timeline: ${recorded.reason}` }
  if (recorded.calls.length === 0) return { type: 'timeline', message: 'no tool calls' }
  return { type: 'timeline', message: timelineText(recorded.calls), attachment: { contentType: 'image/svg+xml', body: Buffer.from(timelineSvg(recorded.calls)).toString('base64') } }
}

/** When each call started and ended, in seconds after the first call started. */
function spans(calls: readonly RecordedCall[]): { name: string; start: number; end: number }[] {
  const origin = Date.parse(calls[0]!.calledAt)
  return calls.map((call) => {
    const start = (Date.parse(call.calledAt) - origin) / 1000
    const end = call.answer === undefined ? start : (Date.parse(call.answer.answeredAt) - origin) / 1000
    return { name: call.name, start, end: Math.max(start, end) }
  })
}

/** One line per tool with its count, then the span of the conversation. */
export function timelineText(calls: readonly RecordedCall[]): string {
  const counts = new Map<string, number>()
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1)
  const all = spans(calls)
  const last = all.at(-1)!
  const tools = [...counts].map(([name, count]) => `${name} ×${count}`).join(', ')
  return `${calls.length} tool call${calls.length === 1 ? '' : 's'} over ${last.end.toFixed(2)} s: ${tools}`
}

/** A bar per call (up to TIMELINE_MAX_CALLS) on a time axis in seconds: which tool, when, how long. */
export function timelineSvg(calls: readonly RecordedCall[]): string {
  const all = spans(calls)
  const shown = all.slice(0, TIMELINE_MAX_CALLS)
  const total = Math.max(all.at(-1)!.end, 1e-3)
  const row = 16
  const labelWidth = 150
  const plotWidth = 420
  const top = 22
  const height = top + shown.length * row + (all.length > shown.length ? row : 0) + 8
  const x = (seconds: number) => labelWidth + (seconds / total) * plotWidth
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + plotWidth + 20}" height="${height}" font-family="monospace" font-size="11">`,
    '<rect width="100%" height="100%" fill="#ffffff"/>',
    `<text x="${labelWidth}" y="12" fill="#555">0 s</text>`,
    `<text x="${labelWidth + plotWidth}" y="12" fill="#555" text-anchor="end">${total.toFixed(2)} s</text>`,
    `<line x1="${labelWidth}" y1="16" x2="${labelWidth + plotWidth}" y2="16" stroke="#999"/>`,
  ]
  shown.forEach((span, i) => {
    const y = top + i * row
    const width = Math.max(x(span.end) - x(span.start), 1.5)
    lines.push(`<text x="4" y="${y + 11}" fill="#222">${escapeXml(`${i + 1}. ${span.name}`.slice(0, 22))}</text>`)
    lines.push(`<rect x="${x(span.start).toFixed(1)}" y="${y + 2}" width="${width.toFixed(1)}" height="${row - 5}" fill="#3b82f6"><title>${escapeXml(`${span.name}: ${span.start.toFixed(3)}–${span.end.toFixed(3)} s`)}</title></rect>`)
  })
  if (all.length > shown.length) lines.push(`<text x="4" y="${top + shown.length * row + 11}" fill="#555">… ${all.length - shown.length} more calls</text>`)
  lines.push('</svg>')
  return lines.join('\n')
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, char => `&#${char.charCodeAt(0)};`)
}
