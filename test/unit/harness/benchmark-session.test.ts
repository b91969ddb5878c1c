// The Node side of a run as the page reaches it, with real HTTP for model requests (a local fake provider).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BenchmarkSession, SampleAccessError } from '../../../src/harness/node/index.ts'
import { modelRequest } from '../../../src/llm/index.ts'
import { openAiText, startFakeModelServer, type FakeModelServer } from '../../helpers/fake-model-server.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'

const BLOCK = 'ikea-manualbook'
const SAMPLE = 'sample-00'
const caller = { project: BLOCK }

let fixture: PackageFixture
let server: FakeModelServer
let runs: string

beforeEach(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 2 })
  server = await startFakeModelServer()
  runs = await mkdtemp(join(tmpdir(), 'awb-session-'))
})
afterEach(async () => {
  await server.close()
  await fixture.cleanup()
  await rm(runs, { recursive: true, force: true })
})

let granted = 0
async function openSession(agent: string): Promise<BenchmarkSession> {
  return BenchmarkSession.open({
    benchmark: fixture.root,
    runsRoot: runs,
    agent,
    model: undefined,
    demonstrations: join(fixture.root, 'none'),
    sampleTimeoutSeconds: 600,
    scoringWorkers: 0,
    inputs: { grant: () => ({ episodeUrl: `/e/${++granted}`, pageUrl: page => `/p/${granted}/${page}`, revoke: () => {} }) },
    recordedOptions: {},
    sendModelRequest: (request, signal) => modelRequest(request, { signal, maxRetries: 0, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.openaiBaseUrl } }),
  })
}

const REQUEST = { provider: 'openai', body: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] } }
const timedOutReport = {
  execution: { status: 'timeout', final_answer: null, error: 'time limit of 600 s reached', usage: null, cost_usd: null, model: null },
  archive: { status: 'not_saved', sha256: null, calls: null, error: null },
  agentOutcome: null, toolCalls: 1, durationSeconds: 600, timings: { openMs: 1, agentMs: 1, exportMs: 0, saveMs: 0 }, capture: null,
}

describe('BenchmarkSession model requests', () => {
  it('counts what the provider reported before a timeout, aborts the request the page abandoned, and refuses later ones', async () => {
    const session = await openSession('openai:gpt-test')
    await session.startSample(caller, BLOCK, SAMPLE)
    server.script('openai', [{ body: openAiText(1, 'thinking', true) }])
    const first = await session.modelRequest(caller, REQUEST)
    expect(first).toMatchObject({ choices: [{ message: { content: 'thinking' } }] })

    server.script('openai', [{ hang: true }])
    const outcome = session.modelRequest(caller, REQUEST).catch((error: unknown) => error)
    await expect.poll(() => server.requests.length).toBe(2)
    // The page gave up at its time limit and saved the world: Node ends the request it still had open.
    await session.saveFinal(caller, BLOCK, SAMPLE, Buffer.from('not a zip').toString('base64'))
    expect(await outcome).toMatchObject({ code: 'LLM_ABORTED' })
    await expect(session.modelRequest(caller, REQUEST)).rejects.toThrow(/has stopped|no sample/)

    const { row } = await session.finishSample(caller, BLOCK, SAMPLE, timedOutReport)
    // The page reported nothing (it timed out); the provider's own figures for the answered request are kept.
    expect(row).toMatchObject({ usage: { input_tokens: 100, output_tokens: 10, cached_input_tokens: 1 }, cost_usd: 0.001 })
    const result = JSON.parse(await readFile(join(await session.runDir() ?? '', 'blocks', BLOCK, 'samples', SAMPLE, 'result.json'), 'utf8')) as { execution: Record<string, unknown> }
    expect(result.execution).toMatchObject({ status: 'timeout', usage: row.usage, cost_usd: row.cost_usd })
    await expect(session.modelRequest(caller, REQUEST)).rejects.toBeInstanceOf(SampleAccessError)
    await session.close('completed')
  })

  it('refuses model requests when the sample runs no API agent', async () => {
    const session = await openSession('idle')
    await session.startSample(caller, BLOCK, SAMPLE)
    await expect(session.modelRequest(caller, REQUEST)).rejects.toThrow(/runs no API agent/)
    expect(server.requests).toHaveLength(0)
    await session.close('completed')
  })
})

describe('BenchmarkSession when a page is lost', () => {
  const LOST = 'the Chromium browser of block ikea-manualbook exited while this sample ran (crashed or killed); the block continues in a new browser'

  it('records the sample in flight as interrupted with the reason; the restarted file gets both samples as recorded', async () => {
    const session = await openSession('idle')
    await session.startSample(caller, BLOCK, SAMPLE)
    // A page that comes back while its last sample is still being scored: the plan waits for that record.
    const finishing = session.finishSample(caller, BLOCK, SAMPLE, timedOutReport)
    const planWhileScoring = session.samplePlan(caller, BLOCK, SAMPLE)
    const finished = await finishing
    expect(await planWhileScoring).toMatchObject({ kind: 'recorded', row: finished.row })
    await session.startSample(caller, BLOCK, 'sample-01')
    expect(await session.pageLost(BLOCK, LOST)).toBe('sample-01')
    // Nothing is open any more: a second loss of the same page records nothing.
    expect(await session.pageLost(BLOCK, LOST)).toBeUndefined()

    const runDir = await session.runDir() ?? ''
    const result = JSON.parse(await readFile(join(runDir, 'blocks', BLOCK, 'samples', 'sample-01', 'result.json'), 'utf8')) as unknown
    expect(result).toMatchObject({ status: 'failed', execution: { status: 'interrupted', error: LOST }, archive: { status: 'not_saved' } })

    // The new page runs the file again: neither sample runs twice, each reports what this run recorded.
    expect(await session.samplePlan(caller, BLOCK, SAMPLE)).toEqual({ kind: 'recorded', row: finished.row, timings: expect.objectContaining({ openMs: 1 }), backend: finished.backend, runDir, sampleDir: finished.sampleDir, failure: 'the agent timed out: time limit of 600 s reached' })
    expect(await session.samplePlan(caller, BLOCK, 'sample-01')).toMatchObject({
      kind: 'recorded',
      row: { block: BLOCK, sample_id: 'sample-01', status: 'error', PA: 0, SR: 0, SCD: null, error: `SampleInterrupted: ${LOST}` },
      failure: `the sample was interrupted: ${LOST}`,
    })
    await expect(session.startSample(caller, BLOCK, 'sample-01')).rejects.toThrow(/recorded by/)
    await session.close('completed')
  })

  it('a page closed because it hung past its time limit: the sample is recorded as the agent\'s timeout', async () => {
    const session = await openSession('idle')
    await session.startSample(caller, BLOCK, SAMPLE)
    const HUNG = `the page of block ${BLOCK} stopped responding: ${SAMPLE} is 60 s past its time limit of 600 s`
    expect(await session.pageLost(BLOCK, HUNG, 'timeout')).toBe(SAMPLE)
    const runDir = await session.runDir() ?? ''
    const result = JSON.parse(await readFile(join(runDir, 'blocks', BLOCK, 'samples', SAMPLE, 'result.json'), 'utf8')) as unknown
    expect(result).toMatchObject({ status: 'failed', execution: { status: 'timeout', error: HUNG }, archive: { status: 'not_saved' } })
    expect(await session.samplePlan(caller, BLOCK, SAMPLE)).toMatchObject({
      kind: 'recorded', row: { status: 'error', PA: 0, SR: 0, error: `SampleTimedOut: ${HUNG}` }, failure: `the agent timed out: ${HUNG}`,
    })
    await session.close('completed')
  })

  it('a page lost after the final episode was saved: the saved world is scored, execution interrupted', async () => {
    const session = await openSession('idle')
    await session.startSample(caller, BLOCK, SAMPLE)
    // The agent's work is done (the world is saved), then the browser dies before the page reports the finish.
    const finalBytes = await readFile(fixture.path(fixture.rel.episode(BLOCK, SAMPLE)))
    const sha256 = await session.saveFinal(caller, BLOCK, SAMPLE, finalBytes.toString('base64'))
    expect(await session.pageLost(BLOCK, LOST)).toBe(SAMPLE)
    const runDir = await session.runDir() ?? ''
    const result = JSON.parse(await readFile(join(runDir, 'blocks', BLOCK, 'samples', SAMPLE, 'result.json'), 'utf8')) as { metrics: Record<string, unknown>; duration_seconds: number | null }
    expect(result).toMatchObject({
      status: 'failed', execution: { status: 'interrupted', error: LOST }, archive: { status: 'saved', sha256 }, tool_calls: null,
      metrics: { block: BLOCK, sample_id: SAMPLE, status: 'scored', tool_calls: null, attempt_finished: true },
    })
    expect(result.duration_seconds).toBeGreaterThanOrEqual(0)
    // The restarted page reports that scored row; the sample does not run again.
    expect(await session.samplePlan(caller, BLOCK, SAMPLE)).toMatchObject({ kind: 'recorded', row: result.metrics })
    await expect(session.startSample(caller, BLOCK, SAMPLE)).rejects.toThrow(/recorded by/)
    await session.close('completed')
  })

  it('a block whose page is gone for good: its open sample and the ones never started are recorded failed; the run goes on', async () => {
    const session = await openSession('idle')
    await session.startSample(caller, BLOCK, SAMPLE)
    const GONE = 'the page of block ikea-manualbook could not be reopened'
    expect(await session.blockLost(BLOCK, GONE)).toEqual([SAMPLE, 'sample-01'])
    const runDir = await session.runDir() ?? ''
    const read = async (id: string) => JSON.parse(await readFile(join(runDir, 'blocks', BLOCK, 'samples', id, 'result.json'), 'utf8')) as unknown
    expect(await read(SAMPLE)).toMatchObject({ status: 'failed', execution: { status: 'interrupted', error: GONE } })
    expect(await read('sample-01')).toMatchObject({ status: 'failed', started_at: null, execution: { status: 'interrupted', error: `never started: ${GONE}` } })
    expect((JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8')) as { selection: unknown }).selection).toEqual({ [BLOCK]: [SAMPLE, 'sample-01'] })
    // One sample was lost in flight: one infrastructure failure, no stop.
    expect(session.stopReason).toBeUndefined()
    await session.close('failed', ['the page was lost'])
  })
})
