// What Vitest's UI shows of a sample beside its figures, from Node's record: the final capture the harness kept, the
// first reference page of the verified package, the timeline of the recorded tool calls; a note where one is missing.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sampleAttachments } from '../../../src/harness/node/index.ts'
import { openPackage, type BenchmarkPackage } from '../../../src/package/index.ts'

const PACKAGE = resolve(import.meta.dirname, '..', '..', '..', 'fixtures', 'awb-mini')
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')

let pkg: BenchmarkPackage
let dir: string

beforeAll(async () => {
  pkg = await openPackage(PACKAGE)
  dir = await mkdtemp(join(tmpdir(), 'awb-attachments-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const record = (entries: object[]) => `${entries.map(entry => JSON.stringify(entry)).join('\n')}\n`

describe('sampleAttachments', () => {
  it('attaches the final capture, the first reference page and the timeline of the calls Node recorded', async () => {
    const sampleDir = join(dir, 'complete')
    await mkdir(sampleDir)
    await writeFile(join(sampleDir, 'final.png'), PNG)
    await writeFile(join(sampleDir, 'conversation.jsonl'), record([
      { timestamp: '2026-12-05T10:00:00.000Z', type: 'message', role: 'user', content: 'assemble' },
      { timestamp: '2026-12-05T10:00:00.000Z', type: 'tool_call', id: 'c1', name: 'list_objects', arguments: {} },
      { timestamp: '2026-12-05T10:00:00.250Z', type: 'tool_result', id: 'c1', result: { objects: [] } },
      // A hostile tool name is drawn as text, never as markup.
      { timestamp: '2026-12-05T10:00:01.000Z', type: 'tool_call', id: 'c2', name: '<script>alert(1)</script>', arguments: {} },
      { timestamp: '2026-12-05T10:00:01.000Z', type: 'tool_call', id: 'c3', name: 'translate_objects', arguments: { ids: ['part-0001'], delta: [1, 0, 0] } },
      { timestamp: '2026-12-05T10:00:02.000Z', type: 'tool_result', id: 'c3', result: { ok: true } },
    ]))
    const [capture, page, timeline] = await sampleAttachments({ pkg, block: 'ikea-manualbook', sampleId: 'Chair/logrelm', sampleDir })
    expect(capture).toEqual({ type: 'final_capture', message: expect.stringMatching(/final scene/), attachment: { contentType: 'image/png', body: PNG.toString('base64') } })
    expect(page).toMatchObject({ type: 'reference_page', message: 'reference page 1 of 4', attachment: { contentType: 'image/png' } })
    expect(Buffer.from(page!.attachment!.body, 'base64').subarray(0, 8)).toEqual(PNG.subarray(0, 8))
    expect(timeline).toMatchObject({ type: 'timeline', message: '3 tool calls over 2.00 s: list_objects ×1, <script>alert(1)</script> ×1, translate_objects ×1', attachment: { contentType: 'image/svg+xml' } })
    const svg = Buffer.from(timeline!.attachment!.body, 'base64').toString('utf8')
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(svg).not.toContain('<script')
    expect(svg).toContain('&#60;script&#62;')
    expect(svg.match(/<rect x=/g)).toHaveLength(3)
  })

  it('says what is missing instead: no saved world, no reference pages, no calls, a record it cannot read', async () => {
    const sampleDir = join(dir, 'empty')
    await mkdir(sampleDir, { recursive: true })
    const none = await sampleAttachments({ pkg, block: 'partnet-none', sampleId: '44266', sampleDir })
    expect(none).toEqual([
      { type: 'final_capture', message: 'no final capture: the sample saved no world' },
      { type: 'reference_page', message: 'no reference pages (block partnet-none gives the agent none)' },
      { type: 'timeline', message: 'no tool calls recorded' },
    ])
    await writeFile(join(sampleDir, 'conversation.jsonl'), '{"timestamp":"2026-12-05T10:00:00.000Z","type":"tool_call","id":"c1","name":"list_objects"}\nnot json\n')
    const [, , torn] = await sampleAttachments({ pkg, block: 'partnet-none', sampleId: '44266', sampleDir })
    expect(torn).toEqual({ type: 'timeline', message: expect.stringMatching(/^1 tool calls; no timeline: conversation\.jsonl line 2 is not JSON/) })
  })
})
