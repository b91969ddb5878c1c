// A sample whose page is lost before it saved its world, through the session: Node rebuilds that world from the calls
// it recorded, saves, seals and scores it as any export (the reference's rule for a timed-out agent); a record it
// cannot replay exactly gives no world and no score.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConversationEntry } from '../../../src/agents/index.ts'
import { decodeEpisode, encodeEpisode } from '../../../src/episode/index.ts'
import { attemptRow, createScorer, scoreFinalEpisode } from '../../../src/evaluate/index.ts'
import { BenchmarkSession, needsRun } from '../../../src/harness/node/index.ts'
import { findSample } from '../../../src/package/index.ts'
import { chainStatus, verifySeals } from '../../../src/runs/index.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'
import { runPageAgent, stateBytes, type AgentCall } from './live-world.ts'

const BLOCK = 'ikea-manualbook'
const SAMPLE = 'sample-00'
const caller = { project: BLOCK }
const HUNG = `the page of block ${BLOCK} stopped responding: ${SAMPLE} is 61 s past its time limit of 600 s and the page has not checked in for 61 s`
const CRASHED = `the page of block ${BLOCK} crashed while this sample ran`
const CALLS: AgentCall[] = [
  { name: 'list_objects', arguments: {} },
  { name: 'translate_objects', arguments: { ids: ['part-0001'], delta: [0.02, -0.01, 0.03] } },
  { name: 'rotate_objects', arguments: { ids: ['part-0001'], angles: [5, 0, -10] } },
  { name: 'capture_scene' },
  { name: 'get_state', arguments: {} },
]

let fixture: PackageFixture
let runs: string

beforeEach(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 1 })
  runs = await mkdtemp(join(tmpdir(), 'awb-rebuilt-'))
})
afterEach(async () => {
  await fixture.cleanup()
  await rm(runs, { recursive: true, force: true })
})

async function openSession(): Promise<BenchmarkSession> {
  return BenchmarkSession.open({
    benchmark: fixture.root,
    runsRoot: runs,
    agent: 'idle',
    model: undefined,
    demonstrations: join(fixture.root, 'none'),
    sampleTimeoutSeconds: 600,
    scoringWorkers: 0,
    inputs: { grant: () => ({ episodeUrl: '/e', pageUrl: page => `/p/${page}`, revoke: () => {} }), },
    recordedOptions: {},
  })
}

/** Starts the sample and sends Node the records of a page agent's live run on the sample's initial episode. */
async function startAndAct(session: BenchmarkSession, edit?: (entries: ConversationEntry[]) => ConversationEntry[]) {
  await session.startSample(caller, BLOCK, SAMPLE)
  const initial = await decodeEpisode(await readFile(fixture.path(fixture.rel.episode(BLOCK, SAMPLE))))
  const live = await runPageAgent(initial, CALLS)
  for (const entry of edit?.(structuredClone(live.entries)) ?? live.entries) await session.record(caller, BLOCK, SAMPLE, entry)
  return live
}

async function readResult(session: BenchmarkSession) {
  const sampleDir = join(await session.runDir() ?? '', 'blocks', BLOCK, 'samples', SAMPLE)
  return { sampleDir, result: JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as Record<string, unknown> & { metrics: Record<string, unknown> } }
}

describe('a sample whose page is lost before it saved its world', () => {
  it('hung past its time limit: its world is rebuilt from Node\'s record, saved, sealed and scored; the agent timed out, and a resume leaves it', async () => {
    const session = await openSession()
    const live = await startAndAct(session)
    expect(await session.pageLost(BLOCK, HUNG, 'timeout')).toBe(SAMPLE)
    const { sampleDir, result } = await readResult(session)
    const finalBytes = new Uint8Array(await readFile(join(sampleDir, 'final.episode.zip')))
    const rebuilt = await decodeEpisode(finalBytes)
    // The world the page held, bit for bit.
    expect(stateBytes(rebuilt)).toEqual(stateBytes(live.runtime.exportEpisode()))
    expect(result).toMatchObject({
      status: 'failed',
      execution: { status: 'timeout', error: HUNG },
      archive: { status: 'saved', calls: 5, error: null, rebuild: { status: 'rebuilt', from: 'conversation.jsonl', tool_calls: 5, replayed: 5 } },
      tool_calls: 5,
      metrics: { block: BLOCK, sample_id: SAMPLE, status: 'scored', tool_calls: 5 },
    })
    // Scored as the live world's own export would be.
    const pkg = session.pkg
    const scorer = createScorer({ workers: 0 })
    const liveScore = await scoreFinalEpisode({ pkg, sample: findSample(pkg, BLOCK, SAMPLE), finalBytes: await encodeEpisode(live.runtime.exportEpisode()), finalSource: 'live', scorer })
    expect({ SCD: result.metrics.SCD, PA: result.metrics.PA, SR: result.metrics.SR, state_index: result.metrics.state_index }).toEqual({ SCD: liveScore.SCD, PA: liveScore.PA, SR: liveScore.SR, state_index: liveScore.state_index })
    expect(result.metrics.episode_sha256).toBe((result.archive as { sha256: string }).sha256)
    // The page that comes back reports that row; nothing runs twice.
    expect(await session.samplePlan(caller, BLOCK, SAMPLE)).toMatchObject({ kind: 'recorded', row: result.metrics, failure: `the agent timed out: ${HUNG}` })
    await session.close('completed')

    // Sealed, `failed` for `awb status` (a resume does not run it again), and `awb eval` gives the same score.
    const runDir = await session.runDir() ?? ''
    expect((await verifySeals(runDir)).samples.map(sample => sample.verdict)).toEqual(['ok'])
    const [sample] = (await chainStatus(runDir)).samples
    expect(sample!.state).toBe('failed')
    expect(needsRun(sample!.state, { retryFailed: false })).toBe(false)
    const evaluated = await attemptRow({ kind: 'attempt', block: BLOCK, sampleId: SAMPLE, attempt: sample!.attempt }, pkg, scorer)
    expect(evaluated).toEqual(result.metrics)
    await scorer.close()
    live.runtime.dispose()
  })

  it('crashed: its world is rebuilt and scored, the sample is interrupted, and a resume runs it again', async () => {
    const session = await openSession()
    const live = await startAndAct(session)
    expect(await session.pageLost(BLOCK, CRASHED)).toBe(SAMPLE)
    const { result } = await readResult(session)
    expect(result).toMatchObject({ status: 'failed', execution: { status: 'interrupted', error: CRASHED }, archive: { status: 'saved', rebuild: { status: 'rebuilt' } }, metrics: { status: 'scored' } })
    await session.close('completed')
    const [sample] = (await chainStatus(await session.runDir() ?? '')).samples
    expect(sample!.state).toBe('interrupted')
    expect(needsRun(sample!.state, { retryFailed: false })).toBe(true)
    live.runtime.dispose()
  })

  it('a record that does not replay exactly (a changed result) gives no world and no score, and says why', async () => {
    const session = await openSession()
    const live = await startAndAct(session, entries => entries.map(entry => (entry.type === 'tool_result' && entry.id === 'call-2' ? { ...entry, result: '{"status":"completed","physics":"disabled","index":9}' } : entry)))
    expect(await session.pageLost(BLOCK, HUNG, 'timeout')).toBe(SAMPLE)
    const { sampleDir, result } = await readResult(session)
    expect(result).toMatchObject({
      status: 'failed',
      execution: { status: 'timeout', error: HUNG },
      archive: { status: 'not_saved', sha256: null, rebuild: { status: 'not_rebuilt', tool_calls: 5, reason: expect.stringMatching(/line \d+: the recorded result of call "call-2" \(translate_objects\) differs from its replay/) } },
    })
    await expect(readFile(join(sampleDir, 'final.episode.zip'))).rejects.toMatchObject({ code: 'ENOENT' })
    expect(await session.samplePlan(caller, BLOCK, SAMPLE)).toMatchObject({ kind: 'recorded', row: { status: 'error', PA: 0, SR: 0, SCD: null, error: `SampleTimedOut: ${HUNG}` } })
    await session.close('completed')
    live.runtime.dispose()
  })

  it('a page lost before its agent made any call: nothing to rebuild, recorded as before', async () => {
    const session = await openSession()
    await session.startSample(caller, BLOCK, SAMPLE)
    await session.record(caller, BLOCK, SAMPLE, { type: 'message', role: 'user', content: 'Assemble.' })
    expect(await session.pageLost(BLOCK, CRASHED)).toBe(SAMPLE)
    const { result } = await readResult(session)
    expect(result).toMatchObject({ execution: { status: 'interrupted' }, archive: { status: 'not_saved', rebuild: { status: 'not_rebuilt', tool_calls: 0, reason: expect.stringMatching(/no tool call was recorded/) } } })
    // Records after the loss are refused: the rebuild read everything Node accepted.
    await expect(session.record(caller, BLOCK, SAMPLE, { type: 'message', role: 'assistant', content: 'late' })).rejects.toThrow(/not the open sample|has finished/)
    await session.close('completed')
  })
})
