// A resumed run reads the rows its chain recorded through the one row schema (a malformed one is a clear error) and
// the timings and backend that scored them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BenchmarkSession } from '../../../src/harness/node/index.ts'
import { EXPORT_FAILED_REPORT, openNodeSession } from '../../helpers/node-session.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'

const BLOCK = 'ikea-manualbook'
const SAMPLE = 'sample-00'
const caller = { project: BLOCK }

let fixture: PackageFixture
let runs: string

beforeEach(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 1 })
  runs = await mkdtemp(join(tmpdir(), 'awb-run-plan-'))
})
afterEach(async () => {
  await fixture.cleanup()
  await rm(runs, { recursive: true, force: true })
})

function openSession(resume?: string): Promise<BenchmarkSession> {
  return openNodeSession(fixture.root, runs, resume === undefined ? {} : { resume })
}

/** One finished sample whose export was not saved: an error row, recorded in result.json `metrics`. */
async function recordOneSample(): Promise<{ runDir: string; resultPath: string }> {
  const session = await openSession()
  await session.startSample(caller, BLOCK, SAMPLE)
  const response = await session.finishSample(caller, BLOCK, SAMPLE, EXPORT_FAILED_REPORT)
  await session.close('completed')
  return { runDir: response.runDir, resultPath: join(response.sampleDir, 'result.json') }
}

describe('recorded samples of a resumed run', () => {
  it('reports the row the chain recorded', async () => {
    const { runDir, resultPath } = await recordOneSample()
    // Scoring time is recorded whole and split into the wait for the scoring pool and the computation.
    const { harness } = JSON.parse(await readFile(resultPath, 'utf8')) as { harness: { timings_ms: Record<string, number>; scoring_backend: string } }
    expect(Object.keys(harness.timings_ms).sort()).toEqual(['agentMs', 'exportMs', 'openMs', 'saveMs', 'scoreComputeMs', 'scoreMs', 'scoreQueueMs'])
    expect(harness.scoring_backend).toBe('cpu-cells')
    const plan = await (await openSession(runDir)).samplePlan(caller, BLOCK, SAMPLE)
    expect(plan).toMatchObject({ kind: 'recorded', backend: 'cpu-cells', row: { block: BLOCK, sample_id: SAMPLE, status: 'error', SCD: null, PA: 0, SR: 0 } })
    expect(plan.kind === 'recorded' && Object.keys(plan.timings)).toContain('scoreQueueMs')
  })

  it('refuses a malformed recorded row, naming the file and the wrong fields, instead of scoring again', async () => {
    const { runDir, resultPath } = await recordOneSample()
    const result = JSON.parse(await readFile(resultPath, 'utf8')) as { metrics: Record<string, unknown> }
    result.metrics = { ...result.metrics, PA: 'zero', error: undefined }
    await writeFile(resultPath, JSON.stringify(result))
    // A run made before seals: its records are read as they are (in a sealed run this edit makes the sample damaged and it runs again).
    await rm(join(runDir, 'seals.jsonl'))
    const runJson = JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8')) as Record<string, unknown>
    delete runJson.seals
    await writeFile(join(runDir, 'run.json'), JSON.stringify(runJson))
    const session = await openSession(runDir)
    const error = await session.samplePlan(caller, BLOCK, SAMPLE).then(() => undefined, (caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'EVALUATE_ROW_INVALID', file: resultPath })
    const message = String((error as Error).message)
    expect(message).toContain('result.json `metrics` is not an official metrics row')
    expect(message).toMatch(/\bPA: Invalid input/)
    expect(message).toMatch(/\berror: Invalid input/)
    await session.close('completed')
  })
})
