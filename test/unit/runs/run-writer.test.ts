import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readRun, RunWriter, selectAttempts } from '../../../src/runs/index.ts'

let root: string
beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'awb-writer-')) })
afterEach(async () => { await rm(root, { recursive: true, force: true }) })

const fixedClock = () => new Date('2026-12-02T13:45:00.123Z')

async function newRun() {
  return RunWriter.create({
    runsRoot: join(root, 'runs'),
    selection: { 'ikea-manualbook': ['Chair/reidar'] },
    tasks: { 'ikea-manualbook': 'Assemble.\n' },
    referenceModes: { 'ikea-manualbook': 'manualbook' },
    options: { agent: 'replay' },
    benchmark: { root: '/pkg', frozen: false, revision: null },
    now: fixedClock,
  })
}

describe('RunWriter', () => {
  it('writes the reference layout that the evaluator reads back', async () => {
    const run = await newRun()
    expect(run.dir).toMatch(/runs\/2026-12-02T134500\.123Z-[0-9a-f]{8}$/)
    await run.writeSampleInputs('ikea-manualbook', 'Chair/reidar', { sha256: 'a'.repeat(64), parts: 6 }, 'Assemble.\n\nprotocol\n')
    const dir = run.sampleDir('ikea-manualbook', 'Chair/reidar')
    expect(dir.endsWith(join('blocks', 'ikea-manualbook', 'samples', 'Chair--reidar'))).toBe(true)
    expect(await readFile(join(dir, 'prompt.txt'), 'utf8')).toBe('Assemble.\n\nprotocol\n')
    await run.appendConversation('ikea-manualbook', 'Chair/reidar', { type: 'tool_call', id: 'c1', name: 'get_scene', arguments: {} })
    await run.saveFinalEpisode('ikea-manualbook', 'Chair/reidar', new Uint8Array([1, 2, 3]))
    await run.writeResult('ikea-manualbook', 'Chair/reidar', { status: 'completed', archive: { status: 'saved', sha256: null } })
    await run.finish('completed')

    const read = await readRun(run.dir)
    expect(read.json).toMatchObject({ kind: 'assembly-world-bench', version: 1, status: 'completed', finished_at: '2026-12-02T13:45:00.123Z' })
    expect(read.attempts).toHaveLength(1)
    expect(read.attempts[0]).toMatchObject({ block: 'ikea-manualbook', sampleId: 'Chair/reidar', recordError: undefined })
    const [selected] = await selectAttempts([run.dir])
    expect(selected?.kind).toBe('attempt')
    const conversation = (await readFile(join(dir, 'conversation.jsonl'), 'utf8')).trim().split('\n').map(l => JSON.parse(l))
    expect(conversation).toEqual([{ timestamp: '2026-12-02T13:45:00.123Z', type: 'tool_call', id: 'c1', name: 'get_scene', arguments: {} }])
  })

  it('never reuses an existing run directory', async () => {
    const first = await newRun()
    const second = await newRun()
    expect(second.dir).not.toBe(first.dir)
  })
})
