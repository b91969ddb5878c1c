// A merged run (`--merge-reports`): its run.json names the shard runs its rows come from, with how each one's seal
// chain ended, and what they agree on; status, attempt selection and resume read the shards through it, every record
// still checked against its seal (and a shard changed or replaced after the merge against what the merge read); a
// missing shard is a clear error, and a folder that is no run says what it is.
import { mkdtemp, readFile, rm, writeFile, mkdir, cp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chainStatus, MergedRunWriter, readRun, RunJsonSchema, RunWriter, selectAttempts, verifySeals, type MergedShard } from '../../../src/runs/index.ts'
import { COMPLETED_RESULT } from '../../helpers/run-fixture.ts'

const ARCHIVE = new Uint8Array([80, 75, 3, 4, 1, 2, 3, 4])
const TASKS = { 'ikea-manualbook': 'Assemble.\n', 'partnet-none': 'Put it together.\n' }

let root: string
let runs: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'awb-merged-run-'))
  runs = join(root, 'runs')
})
afterEach(async () => { await rm(root, { recursive: true, force: true }) })

/** A finished shard run (as `vitest run --shard=i/n` records it) with one ended, sealed sample per entry. */
async function shardRun(shard: string, samples: readonly { block: string; sampleId: string; sr: 0 | 1 }[], at: string, sourceRun?: string): Promise<string> {
  const writer = await RunWriter.create({
    runsRoot: runs,
    selection: {},
    tasks: TASKS,
    referenceModes: { 'ikea-manualbook': 'manualbook', 'partnet-none': 'none' },
    options: { command: 'vitest', agent: 'replay', argv: ['run', `--shard=${shard}`] },
    benchmark: { root: '/pkg', frozen: false, revision: null },
    now: () => new Date(at),
    ...(sourceRun === undefined ? {} : { sourceRun }),
  })
  const selection: Record<string, string[]> = {}
  for (const { block, sampleId, sr } of samples) {
    (selection[block] ??= []).push(sampleId)
    await writer.updateSelection(selection)
    await writer.writeSampleInputs(block, sampleId, { parts: 2 }, 'Assemble.\n')
    await writer.saveFinalEpisode(block, sampleId, ARCHIVE)
    await writer.writeResult(block, sampleId, { ...COMPLETED_RESULT, status: sr === 1 ? 'completed' : 'failed', metrics: { block, sample_id: sampleId, status: 'scored', SR: sr, PA: sr, SCD: 0.5 } })
  }
  await writer.finish('completed')
  return writer.dir
}

/** The shards as the merge reads them (RecordedRuns.shards): id, records, seals. */
async function asShards(dirs: readonly string[]): Promise<MergedShard[]> {
  return Promise.all(dirs.map(async dir => ({ id: basename(dir), run: await readRun(dir), seals: await verifySeals(dir) })))
}

/** Two shards of different blocks (as `--shard` splits block projects), merged. */
async function mergedRun(): Promise<{ merged: string; first: string; second: string }> {
  const first = await shardRun('1/2', [{ block: 'ikea-manualbook', sampleId: 'Chair/ivar', sr: 1 }, { block: 'ikea-manualbook', sampleId: 'Table/lack', sr: 0 }], '2026-01-01T00:00:00.000Z')
  const second = await shardRun('2/2', [{ block: 'partnet-none', sampleId: '44266', sr: 1 }], '2026-01-01T00:00:05.000Z')
  const writer = await MergedRunWriter.create({ runsRoot: runs, shards: await asShards([second, first]), now: () => new Date('2026-01-01T01:00:00.000Z') })
  await writer.finish('completed')
  return { merged: writer.dir, first, second }
}

describe('a merged run', () => {
  it('records which shard runs it is made of, how their seal chains ended, and what they agree on', async () => {
    const { merged, first, second } = await mergedRun()
    expect(basename(merged)).toMatch(/^2026-01-01T010000\.000Z-[0-9a-f]{8}-merged$/)
    const json = JSON.parse(await readFile(join(merged, 'run.json'), 'utf8')) as Record<string, unknown>
    expect(RunJsonSchema.safeParse(json).success).toBe(true)
    const [one, two] = await Promise.all([verifySeals(first), verifySeals(second)])
    expect(json).toMatchObject({
      status: 'completed',
      // The distributed run started with its first shard.
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T01:00:00.000Z',
      source_run: null,
      merge: {
        shards: [
          { run: basename(first), status: 'completed', seals: { count: 2, head: one.head } },
          { run: basename(second), status: 'completed', seals: { count: 1, head: two.head } },
        ],
        differing: ['options.argv'],
        merged_at: '2026-01-01T01:00:00.000Z',
      },
      options: { command: 'vitest', agent: 'replay' },
      benchmark: { local: '/pkg' },
      selection: { 'ikea-manualbook': ['Chair/ivar', 'Table/lack'], 'partnet-none': ['44266'] },
      tasks: TASKS,
    })
    expect((json.options as Record<string, unknown>).argv).toBeUndefined()
    expect(json.merge).not.toHaveProperty('seals')
  })

  it('has the status of every shard sample, each checked against its seal, and names its shards', async () => {
    const { merged, first, second } = await mergedRun()
    const status = await chainStatus(merged)
    expect(status.state).toBe('completed')
    expect(status.chain.map(run => basename(run.dir)).sort()).toEqual([basename(first), basename(second), basename(merged)].sort())
    expect(status.chain.at(-1)?.dir).toBe(status.run.dir)
    expect(status.samples.map(s => [`${s.block}/${s.sampleId}`, s.state, s.seal?.verdict])).toEqual([
      ['ikea-manualbook/Chair/ivar', 'completed', 'ok'],
      ['ikea-manualbook/Table/lack', 'failed', 'ok'],
      ['partnet-none/44266', 'completed', 'ok'],
    ])
    expect(status.seals.find(seals => seals.run === status.run.dir)?.mode).toBe('merge')
  })

  it('selects each sample from the shard that recorded it, with its seal', async () => {
    const { merged, first, second } = await mergedRun()
    const selected = await selectAttempts([merged])
    expect(selected.map(one => [one.kind, one.sampleId, one.attempt && basename(one.attempt.run), one.seal?.verdict])).toEqual([
      ['attempt', 'Chair/ivar', basename(first), 'ok'],
      ['attempt', 'Table/lack', basename(first), 'ok'],
      ['attempt', '44266', basename(second), 'ok'],
    ])
  })

  it('keeps a tampered shard record flagged when read through the merge', async () => {
    const { merged, first } = await mergedRun()
    const result = join(first, 'blocks', 'ikea-manualbook', 'samples', 'Table--lack', 'result.json')
    await writeFile(result, (await readFile(result, 'utf8')).replace('"SR": 0', '"SR": 1'))
    const status = await chainStatus(merged)
    expect(status.samples.find(s => s.sampleId === 'Table/lack')).toMatchObject({ state: 'damaged', damage: expect.stringMatching(/result\.json changed after the sample was sealed/) })
    expect((await selectAttempts([merged])).find(one => one.sampleId === 'Table/lack')?.kind).toBe('error')
  })

  it('trusts none of a shard run replaced after the merge, even one rewritten to look made before seals', async () => {
    const { merged, first } = await mergedRun()
    // The shard's seal file and run.json marker removed: on its own, a run made before seals, read unchecked.
    await rm(join(first, 'seals.jsonl'))
    const runJson = JSON.parse(await readFile(join(first, 'run.json'), 'utf8')) as Record<string, unknown>
    delete runJson.seals
    await writeFile(join(first, 'run.json'), JSON.stringify(runJson))
    expect((await verifySeals(first)).flagged).toEqual([])
    const status = await chainStatus(merged)
    const flagged = status.samples.filter(s => s.state === 'damaged').map(s => s.sampleId)
    expect(flagged).toEqual(['Chair/ivar', 'Table/lack'])
    expect(status.samples[0]?.damage).toMatch(new RegExp(`the merged run ${merged.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} read 2 seals from this run .* but seals\\.jsonl now has 0`))
    expect((await selectAttempts([merged])).filter(one => one.kind === 'error').map(one => one.sampleId)).toEqual(['Chair/ivar', 'Table/lack'])
  })

  it('flags a sample folder planted in the merged run (a merge writes none)', async () => {
    const { merged } = await mergedRun()
    const planted = join(merged, 'blocks', 'partnet-none', 'samples', '99999')
    await mkdir(planted, { recursive: true })
    await writeFile(join(planted, 'input.json'), JSON.stringify({ block: 'partnet-none', sample_id: '99999' }))
    await writeFile(join(planted, 'result.json'), JSON.stringify({ ...COMPLETED_RESULT, metrics: { SR: 1 } }))
    const status = await chainStatus(merged)
    expect(status.samples.find(s => s.sampleId === '99999')).toMatchObject({ state: 'damaged', damage: expect.stringMatching(/a merged run holds no sample folder of its own/) })
  })

  it('says which shard run is missing and where to copy it', async () => {
    const { merged, second } = await mergedRun()
    await rm(second, { recursive: true })
    for (const read of [() => chainStatus(merged), () => selectAttempts([merged])]) {
      await expect(read()).rejects.toMatchObject({
        code: 'RUN_MERGE_SHARD_MISSING',
        message: expect.stringContaining(`reports the records of shard run ${basename(second)}, which is not beside it; copy that shard's runs folder so that ${second} holds its run.json`),
      })
    }
  })

  it('still reads when the runs folder moved as a whole (shards are found beside the merge)', async () => {
    const { merged } = await mergedRun()
    const moved = join(root, 'downloaded', 'runs')
    await cp(runs, moved, { recursive: true })
    await rm(runs, { recursive: true })
    const status = await chainStatus(join(moved, basename(merged)))
    expect(status.samples.map(s => s.state)).toEqual(['completed', 'failed', 'completed'])
  })

  it('makes a sample two overlapping shards recorded damaged (neither is newer) and an error to evaluate', async () => {
    const first = await shardRun('1/2', [{ block: 'partnet-none', sampleId: '44266', sr: 1 }], '2026-01-01T00:00:00.000Z')
    const second = await shardRun('2/2', [{ block: 'partnet-none', sampleId: '44266', sr: 0 }], '2026-01-01T00:00:05.000Z')
    const writer = await MergedRunWriter.create({ runsRoot: runs, shards: await asShards([first, second]) })
    await writer.finish('failed', ['overlap'])
    const status = await chainStatus(writer.dir)
    expect(status.samples).toEqual([expect.objectContaining({ state: 'damaged', damage: expect.stringMatching(/is recorded by both .* neither run continues the other/) })])
    expect((await selectAttempts([writer.dir]))[0]).toMatchObject({ kind: 'error', error: expect.stringMatching(/^Duplicate sample in unrelated runs/) })
  })

  it('can be resumed: a later run continues it, its new records newest, the shards\' the rest', async () => {
    const { merged } = await mergedRun()
    const resumed = await shardRun('none', [{ block: 'ikea-manualbook', sampleId: 'Table/lack', sr: 1 }], '2026-01-02T00:00:00.000Z', merged)
    const status = await chainStatus(resumed)
    expect(status.samples.map(s => [s.sampleId, s.state, basename(s.attempt.run) === basename(resumed)])).toEqual([
      ['Chair/ivar', 'completed', false],
      ['Table/lack', 'completed', true],
      ['44266', 'completed', false],
    ])
    expect((await selectAttempts([resumed])).map(one => one.kind)).toEqual(['attempt', 'attempt', 'attempt'])
  })
})

describe('a folder that is not a run', () => {
  it('a merged report from before merges recorded a run says to merge again', async () => {
    const old = join(runs, '2025-12-01T000000.000Z-0badc0de-report')
    await mkdir(old, { recursive: true })
    await writeFile(join(old, 'metrics.jsonl'), '{}\n')
    await writeFile(join(old, 'summary.json'), '{}\n')
    await expect(readRun(old)).rejects.toMatchObject({ code: 'RUN_RECORD_INVALID', message: expect.stringMatching(/a merged report from before merges recorded one\. Merge the shards again \(`npx vitest run --merge-reports`/) })
  })

  it('an awb eval output says to pass the runs it evaluated', async () => {
    const out = join(root, 'eval')
    await mkdir(out)
    await writeFile(join(out, 'eval.json'), '{}\n')
    await writeFile(join(out, 'metrics.jsonl'), '{}\n')
    await expect(readRun(out)).rejects.toMatchObject({ message: expect.stringContaining('this folder is an `awb eval` output, not a run') })
  })

  it('a merge names its shards by folder name only', async () => {
    const first = await shardRun('1/1', [{ block: 'partnet-none', sampleId: '44266', sr: 1 }], '2026-01-01T00:00:00.000Z')
    const [shard] = await asShards([first])
    await expect(MergedRunWriter.create({ runsRoot: runs, shards: [{ ...shard!, id: '..' }] })).rejects.toMatchObject({ code: 'RUN_RECORD_INVALID' })
    await expect(MergedRunWriter.create({ runsRoot: runs, shards: [] })).rejects.toMatchObject({ code: 'RUN_RECORD_INVALID' })
  })
})
