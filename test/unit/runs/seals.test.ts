// Sealed records: every ended sample's folder is sealed in seals.jsonl, and each way of tampering with a sealed run
// (a changed byte, a forged row, a planted, removed or linked file, a removed folder, an edited, reordered or cut
// seal line, a deleted seal file, a planted sample) is flagged by verifySeals, by the chain status (damaged: resume
// runs it again) and by attempt selection (an error, never a score). A run made before seals reads as before.
import { createHash } from 'node:crypto'
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { needsRun } from '../../../src/harness/node/index.ts'
import { chainStatus, readRun, RunWriter, selectAttempts, verifySeals, type RunSeals } from '../../../src/runs/index.ts'
import { COMPLETED_RESULT, writeRun } from '../../helpers/run-fixture.ts'

const BLOCK = 'ikea-manualbook'
const SAMPLES = ['Chair/reidar', 'Chair/ivar', 'Table/lack'] as const
const ARCHIVE = new Uint8Array([80, 75, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8])

let root: string
beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'awb-seals-')) })
afterEach(async () => { await rm(root, { recursive: true, force: true }) })

function newWriter(conversationCapBytes?: number) {
  return RunWriter.create({
    runsRoot: join(root, 'runs'),
    selection: { [BLOCK]: [...SAMPLES] },
    tasks: { [BLOCK]: 'Assemble.\n' },
    referenceModes: { [BLOCK]: 'manualbook' },
    options: { agent: 'replay' },
    benchmark: { root: '/pkg', frozen: false, revision: null },
    ...(conversationCapBytes === undefined ? {} : { conversationCapBytes }),
  })
}

/** One sample as the session records it: inputs, a conversation, the final episode and capture, the final row. */
async function recordSample(run: RunWriter, sampleId: string, sr: 0 | 1): Promise<string> {
  await run.writeSampleInputs(BLOCK, sampleId, { sha256: 'a'.repeat(64), parts: 2 }, 'Assemble.\n')
  await run.writeResult(BLOCK, sampleId, { status: 'running', execution: { status: 'pending' }, archive: { status: 'not_saved' } })
  await run.appendConversation(BLOCK, sampleId, { type: 'tool_call', id: 'c1', name: 'get_scene', arguments: {} })
  await run.saveFinalEpisode(BLOCK, sampleId, ARCHIVE)
  await run.saveSampleFile(BLOCK, sampleId, 'final.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
  await run.writeResult(BLOCK, sampleId, { ...COMPLETED_RESULT, status: sr === 1 ? 'completed' : 'failed', metrics: { block: BLOCK, sample_id: sampleId, status: 'scored', SR: sr, PA: sr, SCD: 0.5 } })
  return run.sampleDir(BLOCK, sampleId)
}

/** A finished run of three sealed samples (the second failed); returns its directory and the sample folders. */
async function sealedRun(): Promise<{ dir: string; samples: string[] }> {
  const run = await newWriter()
  const samples = [await recordSample(run, SAMPLES[0], 1), await recordSample(run, SAMPLES[1], 0), await recordSample(run, SAMPLES[2], 1)]
  await run.finish('completed')
  return { dir: run.dir, samples }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const verdicts = (seals: RunSeals) => Object.fromEntries(seals.samples.map(sample => [sample.sampleId, sample.verdict]))

async function sealLines(dir: string): Promise<string[]> {
  return (await readFile(join(dir, 'seals.jsonl'), 'utf8')).split('\n').filter(line => line !== '')
}

/** verifySeals, the chain status and attempt selection, for one sample. */
async function judged(dir: string, sampleId: string) {
  const seals = await verifySeals(dir)
  const status = (await chainStatus(dir)).samples.find(sample => sample.sampleId === sampleId)
  const selected = (await selectAttempts([dir])).find(one => one.sampleId === sampleId)
  return { seals, seal: seals.samples.find(sample => sample.sampleId === sampleId), status, selected }
}

describe('sealing', () => {
  it('seals each sample as it ends, in a hash chain that run.json closes, and every check passes', async () => {
    const { dir, samples } = await sealedRun()
    const lines = (await sealLines(dir)).map(line => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map(line => line.sample_id)).toEqual([...SAMPLES])
    expect(lines[0]).toMatchObject({ seal: 1, block: BLOCK, prev: null, sealed_at: expect.any(String) })
    expect(Object.keys(lines[0]!.files as object)).toEqual(['conversation.jsonl', 'final.episode.zip', 'final.png', 'input.json', 'prompt.txt', 'result.json'])
    expect((lines[0]!.files as Record<string, string>)['final.episode.zip']).toBe(sha256(ARCHIVE))
    let bytes = 0
    for (const name of Object.keys(lines[0]!.files as object)) bytes += (await stat(join(samples[0]!, name))).size
    expect(lines[0]!.bytes).toBe(bytes)
    expect(lines[1]!.prev).toMatch(/^[0-9a-f]{64}$/)
    const seals = await verifySeals(dir)
    expect(seals).toMatchObject({ mode: 'sealed', count: 3, chainProblems: [], flagged: [] })
    expect(verdicts(seals)).toEqual({ 'Chair/ivar': 'ok', 'Chair/reidar': 'ok', 'Table/lack': 'ok' })
    const runJson = (await readRun(dir)).json as { seals?: unknown }
    expect(runJson.seals).toEqual({ file: 'seals.jsonl', version: 1, count: 3, head: seals.head })
    expect((await chainStatus(dir)).counts).toEqual({ completed: 2, failed: 1 })
    expect((await selectAttempts([dir])).map(one => one.kind)).toEqual(['attempt', 'attempt', 'attempt'])
  })

  it('refuses any write to a sample once it has ended', async () => {
    const run = await newWriter()
    await recordSample(run, SAMPLES[0], 1)
    await expect(run.appendConversation(BLOCK, SAMPLES[0], { type: 'message', role: 'assistant', content: 'late' })).rejects.toMatchObject({ code: 'RUN_SAMPLE_SEALED' })
    await expect(run.writeResult(BLOCK, SAMPLES[0], { status: 'completed' })).rejects.toMatchObject({ code: 'RUN_SAMPLE_SEALED' })
    await expect(run.saveSampleFile(BLOCK, SAMPLES[0], 'final.png', new Uint8Array([1]))).rejects.toMatchObject({ code: 'RUN_SAMPLE_SEALED' })
    await run.finish('completed')
    expect((await verifySeals(run.dir)).flagged).toEqual([])
  })

  it('seals a record that races the final result after it, never leaving it outside the seal', async () => {
    const run = await newWriter()
    await run.writeSampleInputs(BLOCK, SAMPLES[0], {}, 'p')
    const appends = Array.from({ length: 20 }, (_, i) => run.appendConversation(BLOCK, SAMPLES[0], { type: 'event', i }))
    const final = run.writeResult(BLOCK, SAMPLES[0], { status: 'failed' })
    await Promise.all([...appends, final])
    await run.finish('completed')
    expect((await readFile(join(run.sampleDir(BLOCK, SAMPLES[0]), 'conversation.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(20)
    expect(verdicts(await verifySeals(run.dir))).toEqual({ 'Chair/reidar': 'ok' })
  })
})

describe('tampering with a sealed run', () => {
  it('one changed byte of final.episode.zip: changed, naming the file and both hashes; damaged; an error selection', async () => {
    const { dir, samples } = await sealedRun()
    const path = join(samples[1]!, 'final.episode.zip')
    const bytes = await readFile(path)
    bytes[5] = bytes[5]! ^ 1
    await writeFile(path, bytes)
    const { seals, seal, status, selected } = await judged(dir, SAMPLES[1])
    expect(seal).toMatchObject({ verdict: 'changed', flagged: true, line: 2, differences: [{ file: 'final.episode.zip', kind: 'changed', sealed: expect.stringMatching(/^[0-9a-f]{64}$/), found: expect.stringMatching(/^[0-9a-f]{64}$/) }] })
    expect(seal!.message).toContain(`run ${dir}: ${BLOCK} / ${SAMPLES[1]}: final.episode.zip changed after the sample was sealed (SHA-256 now `)
    expect(seals.flagged.map(one => one.sampleId)).toEqual([SAMPLES[1]])
    expect(status).toMatchObject({ state: 'damaged', damage: seal!.message })
    expect(needsRun(status!.state, { retryFailed: false })).toBe(true)
    expect(selected).toMatchObject({ kind: 'error', error: seal!.message, seal: { verdict: 'changed' } })
  })

  it('a result.json forged to SR 1: changed, and the forged row is never the one selected', async () => {
    const { dir, samples } = await sealedRun()
    const path = join(samples[1]!, 'result.json')
    const result = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
    await writeFile(path, JSON.stringify({ ...result, status: 'completed', metrics: { ...(result.metrics as object), SR: 1, PA: 1 } }))
    const { seal, status, selected } = await judged(dir, SAMPLES[1])
    expect(seal).toMatchObject({ verdict: 'changed', differences: [{ file: 'result.json', kind: 'changed' }] })
    expect(status?.state).toBe('damaged')
    expect(selected?.kind).toBe('error')
  })

  it('a planted file, a removed file and a planted link are each flagged', async () => {
    const { dir, samples } = await sealedRun()
    await writeFile(join(samples[0]!, 'solution.json'), '{"SR": 1}')
    await rm(join(samples[1]!, 'conversation.jsonl'))
    await symlink('/etc/passwd', join(samples[2]!, 'evidence'))
    const seals = await verifySeals(dir)
    expect(verdicts(seals)).toEqual({ 'Chair/reidar': 'planted', 'Chair/ivar': 'missing', 'Table/lack': 'planted' })
    const byId = new Map(seals.samples.map(sample => [sample.sampleId, sample]))
    expect(byId.get(SAMPLES[0])!.message).toContain('solution.json was added after the sample was sealed')
    expect(byId.get(SAMPLES[1])!.message).toContain('conversation.jsonl was removed after the sample was sealed')
    expect(byId.get(SAMPLES[2])!.message).toContain('evidence (a symbolic link) was added')
    expect((await chainStatus(dir)).counts).toEqual({ damaged: 3 })
  })

  it('a removed sample folder is still there for every reader: damaged, and an error instead of a missing row', async () => {
    const { dir, samples } = await sealedRun()
    await rm(samples[1]!, { recursive: true })
    const { seal, status, selected } = await judged(dir, SAMPLES[1])
    expect(seal).toMatchObject({ verdict: 'missing', flagged: true })
    expect(seal!.message).toContain('the sample folder was removed after it was sealed')
    expect(status?.state).toBe('damaged')
    expect(selected).toMatchObject({ kind: 'error', error: expect.stringContaining('the sample folder was removed') })
  })

  it('an edited seal line (re-sealing a changed archive) breaks the chain at the next line', async () => {
    const { dir, samples } = await sealedRun()
    const path = join(samples[0]!, 'final.episode.zip')
    await writeFile(path, new Uint8Array([9, 9, 9]))
    const lines = await sealLines(dir)
    const first = JSON.parse(lines[0]!) as { files: Record<string, string> }
    first.files['final.episode.zip'] = sha256(new Uint8Array([9, 9, 9]))
    lines[0] = JSON.stringify(first)
    await writeFile(join(dir, 'seals.jsonl'), `${lines.join('\n')}\n`)
    const seals = await verifySeals(dir)
    expect(seals.chainProblems[0]).toMatch(/line 2 of seals\.jsonl does not follow line 1 .*a line was edited, removed, inserted or moved/)
    expect(verdicts(seals)).toEqual({ 'Chair/reidar': 'broken', 'Chair/ivar': 'broken', 'Table/lack': 'broken' })
    expect(seals.samples[0]!.message).toContain('is not trusted')
    expect((await chainStatus(dir)).counts).toEqual({ damaged: 3 })
  })

  it('reordered seal lines break the chain', async () => {
    const { dir } = await sealedRun()
    const lines = await sealLines(dir)
    await writeFile(join(dir, 'seals.jsonl'), `${[lines[1], lines[0], lines[2]].join('\n')}\n`)
    const seals = await verifySeals(dir)
    expect(seals.chainProblems.length).toBeGreaterThan(0)
    expect(seals.flagged).toHaveLength(3)
    expect(new Set(seals.samples.map(sample => sample.verdict))).toEqual(new Set(['broken']))
  })

  it('a rewritten last line, or a removed one, is caught by the count and head run.json recorded at the end', async () => {
    const { dir, samples } = await sealedRun()
    const lines = await sealLines(dir)
    // Consistent with its own prev, so only run.json's head can tell.
    const last = JSON.parse(lines[2]!) as { files: Record<string, string> }
    await writeFile(join(samples[2]!, 'final.episode.zip'), new Uint8Array([7]))
    last.files['final.episode.zip'] = sha256(new Uint8Array([7]))
    await writeFile(join(dir, 'seals.jsonl'), `${[lines[0], lines[1], JSON.stringify(last)].join('\n')}\n`)
    const rewritten = await verifySeals(dir)
    expect(rewritten.chainProblems).toEqual([expect.stringMatching(/the last line of seals\.jsonl hashes to .*, but run\.json records .*: it was changed after the run finished/)])
    expect(verdicts(rewritten)).toEqual({ 'Chair/reidar': 'ok', 'Chair/ivar': 'ok', 'Table/lack': 'broken' })

    await writeFile(join(dir, 'seals.jsonl'), `${[lines[0], lines[1]].join('\n')}\n`)
    const cut = await verifySeals(dir)
    expect(cut.chainProblems).toEqual(['run.json records 3 seals, but seals.jsonl has 2: lines were removed after the run finished'])
    expect(cut.samples.find(sample => sample.sampleId === SAMPLES[2])).toMatchObject({ verdict: 'unsealed', flagged: true, message: expect.stringContaining('seals.jsonl has no seal for it') })
  })

  it('a deleted seals.jsonl: every sample is unsealed and flagged, since run.json says the run seals', async () => {
    const { dir } = await sealedRun()
    await rm(join(dir, 'seals.jsonl'))
    const seals = await verifySeals(dir)
    expect(seals).toMatchObject({ mode: 'sealed', count: 0, head: null })
    expect(seals.chainProblems).toContain('run.json says this run seals its samples, but seals.jsonl is missing')
    expect(seals.samples.map(sample => [sample.verdict, sample.flagged])).toEqual([['unsealed', true], ['unsealed', true], ['unsealed', true]])
    expect((await chainStatus(dir)).counts).toEqual({ damaged: 3 })
  })

  it('a planted sample folder in a sealed run is unsealed and flagged', async () => {
    const { dir } = await sealedRun()
    const planted = join(dir, 'blocks', BLOCK, 'samples', 'Chair--planted')
    await mkdir(planted, { recursive: true })
    await writeFile(join(planted, 'input.json'), JSON.stringify({ block: BLOCK, sample_id: 'Chair/planted' }))
    await writeFile(join(planted, 'result.json'), JSON.stringify({ ...COMPLETED_RESULT, metrics: { SR: 1 } }))
    const { seal, status, selected } = await judged(dir, 'Chair/planted')
    expect(seal).toMatchObject({ verdict: 'unsealed', flagged: true })
    expect(status?.state).toBe('damaged')
    expect(selected?.kind).toBe('error')
  })

  it('a seal line naming a folder outside the run is no seal', async () => {
    const { dir } = await sealedRun()
    await appendFile(join(dir, 'seals.jsonl'), `${JSON.stringify({ seal: 1, block: '..', sample_id: 'x', files: {}, bytes: 0, sealed_at: 'now', prev: null })}\n`)
    const seals = await verifySeals(dir)
    expect(seals.chainProblems.some(problem => /line 4 of seals\.jsonl is not a seal \(block: must be one folder name\)/.test(problem))).toBe(true)
    expect(seals.samples.map(sample => sample.sampleId)).toEqual(['Chair/ivar', 'Chair/reidar', 'Table/lack'])
  })
})

describe('a run still being written', () => {
  it('takes a seal under way for what it is while its writer lives, and as a fault once the run has finished', async () => {
    const run = await newWriter()
    await recordSample(run, SAMPLES[0], 1)
    // Between a sample's final result and its seal, and in the middle of appending the line.
    const between = join(run.dir, 'blocks', BLOCK, 'samples', 'Chair--ivar')
    await mkdir(between, { recursive: true })
    await writeFile(join(between, 'result.json'), JSON.stringify(COMPLETED_RESULT))
    await appendFile(join(run.dir, 'seals.jsonl'), '{"seal":1,"block"')
    const live = await verifySeals(run.dir)
    expect(live.chainProblems).toEqual([])
    expect(verdicts(live)).toEqual({ 'Chair/reidar': 'ok', 'Chair/ivar': 'open' })
    await run.finish('failed')
    const ended = await verifySeals(run.dir)
    expect(ended.chainProblems).toEqual([expect.stringMatching(/the last line of seals\.jsonl is incomplete/)])
    expect(ended.samples.find(sample => sample.dir === between)).toMatchObject({ verdict: 'unsealed', flagged: true })
  })
})

describe('runs made before seals', () => {
  it('are read as before: unsealed, not flagged; a changed archive is still damaged by its result.json hash', async () => {
    const legacy = await writeRun({ dir: join(root, 'legacy'), attempts: [{ block: BLOCK, sampleId: SAMPLES[0] }, { block: BLOCK, sampleId: SAMPLES[1], finalEpisode: ARCHIVE, result: { ...COMPLETED_RESULT, archive: { status: 'saved', sha256: '0'.repeat(64) } } }] })
    const seals = await verifySeals(legacy)
    expect(seals).toMatchObject({ mode: 'legacy', count: 0, head: null, chainProblems: [], flagged: [] })
    expect(verdicts(seals)).toEqual({ 'Chair/reidar': 'unsealed', 'Chair/ivar': 'unsealed' })
    const status = await chainStatus(legacy)
    expect(status.samples.map(sample => [sample.sampleId, sample.state])).toEqual([['Chair/ivar', 'damaged'], ['Chair/reidar', 'completed']])
    expect(status.samples[0]!.damage).toMatch(/final\.episode\.zip has SHA-256 [0-9a-f]{64}, but result\.json records 0{64}/)
    expect((await selectAttempts([legacy])).map(one => one.kind)).toEqual(['attempt', 'attempt'])
  })
})

describe('the conversation cap', () => {
  it('refuses the record that would pass the cap, and every later one, without the log growing past it', async () => {
    const cap = 1000
    const run = await newWriter(cap)
    await run.writeSampleInputs(BLOCK, SAMPLES[0], {}, 'p')
    const path = join(run.sampleDir(BLOCK, SAMPLES[0]), 'conversation.jsonl')
    const record = { type: 'event', text: 'x'.repeat(200) }
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => run.appendConversation(BLOCK, SAMPLES[0], record)))
    const accepted = results.filter(result => result.status === 'fulfilled').length
    expect(accepted).toBeGreaterThan(0)
    expect(accepted).toBeLessThan(10)
    const size = (await stat(path)).size
    expect(size).toBeLessThanOrEqual(cap)
    const refused = results.find(result => result.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({ code: 'RUN_RECORD_CAP', file: path })
    expect(String(refused.reason.message)).toMatch(new RegExp(`${BLOCK} / Chair/reidar: conversation\\.jsonl has reached its cap of 1000 bytes .*The sample's agent is stopped and the sample fails.*record less .* or run with a larger cap`))
    // Past the cap even a tiny record is refused: the log is closed for good.
    await expect(run.appendConversation(BLOCK, SAMPLES[0], { type: 'e' })).rejects.toMatchObject({ code: 'RUN_RECORD_CAP' })
    expect((await stat(path)).size).toBe(size)
    expect(run.recordCapError(BLOCK, SAMPLES[0])?.code).toBe('RUN_RECORD_CAP')
    // Other samples keep their own budget.
    await run.writeSampleInputs(BLOCK, SAMPLES[1], {}, 'p')
    await expect(run.appendConversation(BLOCK, SAMPLES[1], record)).resolves.toBeUndefined()
  })

  it('defaults to 64 MiB', async () => {
    const { MAX_CONVERSATION_BYTES } = await import('../../../src/runs/index.ts')
    expect(MAX_CONVERSATION_BYTES).toBe(64 * 1024 * 1024)
  })
})
