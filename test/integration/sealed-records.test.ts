// Sealed records end to end, on the Node side of real runs (BenchmarkSession over a fixture package, no browser):
// a page that floods its conversation log is stopped at the cap and the run goes on; samples are sealed as they
// end; and a tampered run is flagged by `awb status`, `awb eval` (an error row, never a score), `awb report` and a
// resume (the sample runs again), each naming the run, the sample and the file.
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decodeEpisode, encodeEpisode } from '../../src/episode/index.ts'
import { BenchmarkSession, SampleAccessError } from '../../src/harness/node/index.ts'
import { planResume } from '../../src/harness/node/run-plan.ts'
import { openPackage } from '../../src/package/index.ts'
import { buildReport } from '../../src/report/html/index.ts'
import { MAX_CONVERSATION_BYTES, verifySeals } from '../../src/runs/index.ts'
import { recordSetObjectPose } from '../helpers/episode-fixture.ts'
import { openNodeSession } from '../helpers/node-session.ts'
import { createPackageFixture, type PackageFixture } from '../helpers/package-fixture.ts'
import { runCli } from '../helpers/run-cli.ts'

const BLOCK = 'ikea-manualbook'
const OTHER = 'partnet-none'
const SAMPLE = 'sample-00'
const caller = { project: BLOCK }

let fixture: PackageFixture
let runs: string
let work: string

beforeEach(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 1 })
  work = await mkdtemp(join(tmpdir(), 'awb-sealed-'))
  runs = join(work, 'runs')
})
afterEach(async () => {
  await fixture.cleanup()
  await rm(work, { recursive: true, force: true })
})

function openSession(resume?: string): Promise<BenchmarkSession> {
  return openNodeSession(fixture.root, runs, resume === undefined ? {} : { resume })
}

const completedReport = (sha256: string | null) => ({
  execution: { status: 'completed', final_answer: 'done', error: null, usage: null, cost_usd: null, model: null },
  archive: sha256 === null ? { status: 'failed', sha256: null, calls: null, error: 'export failed' } : { status: 'saved', sha256, calls: 0, error: null },
  agentOutcome: null, toolCalls: 0, durationSeconds: 1, timings: { openMs: 1, agentMs: 1, exportMs: 0, saveMs: 0 }, capture: null,
})

/** A finished run: one scored sample in BLOCK (its initial world saved as final), one unsaved in OTHER. */
async function recordRun(): Promise<{ runDir: string; scoredDir: string; failedDir: string; rows: unknown[] }> {
  const session = await openSession()
  await session.startSample(caller, BLOCK, SAMPLE)
  await session.record(caller, BLOCK, SAMPLE, { type: 'message', role: 'assistant', content: 'placing parts' })
  const finalBytes = await readFile(fixture.path(fixture.rel.episode(BLOCK, SAMPLE)))
  const sha256 = await session.saveFinal(caller, BLOCK, SAMPLE, finalBytes.toString('base64'))
  const scored = await session.finishSample(caller, BLOCK, SAMPLE, completedReport(sha256))
  await session.startSample({ project: OTHER }, OTHER, SAMPLE)
  const failed = await session.finishSample({ project: OTHER }, OTHER, SAMPLE, completedReport(null))
  await session.close('completed')
  // What the aggregate reporter writes after the samples, outside any seal.
  await writeFile(join(scored.runDir, 'metrics.jsonl'), [scored.row, failed.row].map(row => JSON.stringify(row)).join('\n') + '\n')
  return { runDir: scored.runDir, scoredDir: scored.sampleDir, failedDir: failed.sampleDir, rows: [scored.row, failed.row] }
}

async function flipByte(path: string): Promise<void> {
  const bytes = await readFile(path)
  const at = bytes.length >> 1
  bytes[at] = bytes[at]! ^ 1
  await writeFile(path, bytes)
}

describe('the conversation cap in a run', () => {
  it('stops a page that floods its log: the record is refused, the sample ends failed with why, the run goes on', async () => {
    const session = await openSession()
    await session.startSample(caller, BLOCK, SAMPLE)
    // 30 M characters a record (below the per-record limit): the third would take the log past 64 MiB.
    const flood = { type: 'event', text: 'x'.repeat(30_000_000) }
    await session.record(caller, BLOCK, SAMPLE, flood)
    await session.record(caller, BLOCK, SAMPLE, flood)
    const refused = await session.record(caller, BLOCK, SAMPLE, flood).then(() => undefined, (error: unknown) => error)
    expect(refused).toMatchObject({ code: 'RUN_RECORD_CAP', message: expect.stringContaining(`${BLOCK} / ${SAMPLE}: conversation.jsonl has reached its cap of 64 MiB`) })
    const runDir = (await session.runDir())!
    const dir = join(runDir, 'blocks', BLOCK, 'samples', SAMPLE)
    expect((await stat(join(dir, 'conversation.jsonl'))).size).toBeLessThanOrEqual(MAX_CONVERSATION_BYTES)
    // The sample is over: nothing more is accepted for it, and its record says why it failed.
    await expect(session.record(caller, BLOCK, SAMPLE, { type: 'event' })).rejects.toBeInstanceOf(SampleAccessError)
    await expect(session.saveFinal(caller, BLOCK, SAMPLE, 'AAAA')).rejects.toBeInstanceOf(SampleAccessError)
    const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as { status: string; execution: { error: string } }
    expect(result.status).toBe('failed')
    expect(result.execution.error).toContain('conversation.jsonl has reached its cap')
    expect(await session.samplePlan(caller, BLOCK, SAMPLE)).toMatchObject({ kind: 'recorded', row: { status: 'error', SR: 0, error: expect.stringContaining('has reached its cap') } })
    // The run goes on with the next sample.
    await expect(session.startSample({ project: OTHER }, OTHER, SAMPLE)).resolves.toMatchObject({ prompt: expect.any(String) })
    await session.close('completed')
    expect((await verifySeals(runDir)).samples.map(sample => [sample.block, sample.verdict])).toEqual([[BLOCK, 'ok'], [OTHER, 'ok']])
  })
})

describe('a tampered run', () => {
  it('an untouched run passes every check: status, resume, eval', async () => {
    const { runDir } = await recordRun()
    const status = await runCli(['status', runDir])
    expect(status.stdout).toContain('seals (this run): 2 sealed, every sample intact')
    expect(status.stdout).not.toMatch(/^damaged /m)
    const plan = await planResume({ resume: runDir, runsRoot: runs, retryFailed: false, pkg: await openPackage(fixture.root) })
    expect(plan.damaged).toEqual([])
    expect([...plan.recorded.keys()]).toHaveLength(2)
    const output = join(work, 'eval')
    await runCli(['eval', runDir, '--benchmark', fixture.root, '--output', output, '--backend', 'cpu', '--workers', '0'])
    const rows = (await readFile(join(output, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
    expect(rows.map(row => [row.block, row.status])).toEqual([[BLOCK, 'scored'], [OTHER, 'error']])
  })

  it('a world swapped in with a matching result.json hash is scored only where nothing is sealed', async () => {
    const { runDir, scoredDir } = await recordRun()
    // Another valid final world of the sample (a part moved), with result.json updated to match: only the seal can tell.
    const episode = await decodeEpisode(await readFile(fixture.path(fixture.rel.episode(BLOCK, SAMPLE))))
    recordSetObjectPose(episode, 1, [0.5, 0, 0])
    const swapped = await encodeEpisode(episode)
    await writeFile(join(scoredDir, 'final.episode.zip'), swapped)
    const resultPath = join(scoredDir, 'result.json')
    const result = JSON.parse(await readFile(resultPath, 'utf8')) as { archive: Record<string, unknown> }
    result.archive.sha256 = createHash('sha256').update(swapped).digest('hex')
    await writeFile(resultPath, JSON.stringify(result))
    const sealedEval = join(work, 'eval-sealed')
    await runCli(['eval', runDir, '--benchmark', fixture.root, '--output', sealedEval, '--backend', 'cpu', '--workers', '0'])
    const sealedRow = (await readFile(join(sealedEval, 'metrics.jsonl'), 'utf8')).split('\n')[0]!
    expect(JSON.parse(sealedRow)).toMatchObject({ block: BLOCK, status: 'error', error: expect.stringMatching(/^EvaluateError: .*final\.episode\.zip changed after the sample was sealed .*; also result\.json changed/) })
    // The same run stripped of its seals reads as one made before them: the swapped world is scored as the run's.
    await rm(join(runDir, 'seals.jsonl'))
    const runJson = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8')) as Record<string, unknown>
    delete runJson.seals
    await writeFile(join(runDir, 'run.json'), JSON.stringify(runJson))
    const legacyEval = join(work, 'eval-legacy')
    await runCli(['eval', runDir, '--benchmark', fixture.root, '--output', legacyEval, '--backend', 'cpu', '--workers', '0'])
    expect(JSON.parse((await readFile(join(legacyEval, 'metrics.jsonl'), 'utf8')).split('\n')[0]!)).toMatchObject({ block: BLOCK, status: 'scored', episode_sha256: result.archive.sha256 })
  })

  it('status flags the changed file per sample; resume runs the sample again; eval gives an error row, not a score', async () => {
    const { runDir, scoredDir } = await recordRun()
    await flipByte(join(scoredDir, 'final.episode.zip'))

    const status = await runCli(['status', runDir])
    expect(status.code).toBe(0)
    expect(status.stdout).toMatch(new RegExp(`damaged run ${runDir}: ${BLOCK} / ${SAMPLE}: final\\.episode\\.zip changed after the sample was sealed \\(SHA-256 now [0-9a-f]{16}…, sealed [0-9a-f]{16}…\\)`))
    expect(status.stdout).toContain('seals (this run): 2 sealed, 1 flagged')
    const json = JSON.parse((await runCli(['status', runDir, '--json'])).stdout) as { samples: Record<string, string>; damaged: Record<string, string>; seals: { samples: Record<string, string> }[] }
    expect(json.samples[`${BLOCK}/${SAMPLE}`]).toBe('damaged')
    expect(json.damaged[`${BLOCK}/${SAMPLE}`]).toContain('final.episode.zip changed')
    expect(json.seals[0]!.samples).toEqual({ [`${BLOCK}/${SAMPLE}`]: 'changed', [`${OTHER}/${SAMPLE}`]: 'ok' })

    const plan = await planResume({ resume: runDir, runsRoot: runs, retryFailed: false, pkg: await openPackage(fixture.root) })
    expect(plan.damaged).toEqual([expect.stringContaining(`${BLOCK} / ${SAMPLE}: final.episode.zip changed`)])
    const resumed = await openSession(runDir)
    expect(await resumed.samplePlan(caller, BLOCK, SAMPLE)).toEqual({ kind: 'run' })
    expect(await resumed.samplePlan({ project: OTHER }, OTHER, SAMPLE)).toMatchObject({ kind: 'recorded' })
    await resumed.close('completed')

    const output = join(work, 'eval')
    const evaluated = await runCli(['eval', runDir, '--benchmark', fixture.root, '--output', output, '--backend', 'cpu', '--workers', '0'])
    expect(evaluated.code).toBe(1)
    expect(evaluated.stderr).toContain(`${BLOCK} ${SAMPLE}: error: EvaluateError: run ${runDir}: ${BLOCK} / ${SAMPLE}: final.episode.zip changed after the sample was sealed`)
    const rows = (await readFile(join(output, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
    expect(rows.find(row => row.block === BLOCK)).toMatchObject({ status: 'error', SR: 0, PA: 0, SCD: null, usage: null, tool_calls: null, error: expect.stringContaining('its records are not trusted, so it is not scored') })
  })

  it('a result.json forged to a scored SR 1 row is flagged the same way; a resume does not report it', async () => {
    const { runDir, failedDir } = await recordRun()
    const path = join(failedDir, 'result.json')
    const result = JSON.parse(await readFile(path, 'utf8')) as { metrics: Record<string, unknown> }
    await writeFile(path, JSON.stringify({ ...result, status: 'completed', metrics: { ...result.metrics, status: 'scored', SR: 1, PA: 1, SCD: 0 } }))
    const status = await runCli(['status', runDir])
    expect(status.stdout).toContain(`damaged run ${runDir}: ${OTHER} / ${SAMPLE}: result.json changed after the sample was sealed`)
    const resumed = await openSession(runDir)
    expect(await resumed.samplePlan({ project: OTHER }, OTHER, SAMPLE)).toEqual({ kind: 'run' })
    await resumed.close('completed')
  })

  it('a planted file is flagged by status and by the report, which also catches a forged metrics.jsonl row', async () => {
    const { runDir, failedDir, rows } = await recordRun()
    await writeFile(join(failedDir, 'notes.txt'), 'planted')
    // metrics.jsonl lies outside every seal (it is written after the samples): the report checks it against them.
    const forged = rows.map(row => ({ ...(row as Record<string, unknown>) }))
    const sr = forged[0]!.SR as number
    forged[0]!.SR = 1 - sr
    await writeFile(join(runDir, 'metrics.jsonl'), forged.map(row => JSON.stringify(row)).join('\n') + '\n')
    expect((await runCli(['status', runDir])).stdout).toContain(`damaged run ${runDir}: ${OTHER} / ${SAMPLE}: notes.txt was added after the sample was sealed`)
    const logs: string[] = []
    const built = await buildReport({ runDir, packageDir: fixture.root, scorer: undefined, captures: false, outDir: join(work, 'report'), log: line => logs.push(line) })
    expect(built.records.flagged).toEqual([
      `run ${runDir}: ${BLOCK} / ${SAMPLE}: metrics.jsonl says SR ${1 - sr}, but the sealed result.json records SR ${sr}`,
      expect.stringContaining(`${OTHER} / ${SAMPLE}: notes.txt was added after the sample was sealed`),
    ])
    expect(logs.filter(line => line.startsWith('awb report: records not trusted: '))).toHaveLength(2)
    const html = await readFile(built.path, 'utf8')
    expect(html).toContain('<section id="awb-records"><h2>Records</h2>')
    expect(html).toContain('2 samples with records that are not to be trusted')
    expect(html).toContain('notes.txt was added after the sample was sealed')
    expect(html).toMatch(/<tr data-key="partnet-none\/sample-00" class="error untrusted" title="run /)
  })
})
