// A merged report's rows come from the shards' Node records (RecordedRuns), never from the blob reports: the row a
// report names is read from its run's result.json, checked against the run's seals; a tampered record, a run that is
// not there, or a report that names no run gives no row and a problem that fails the merge.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RecordedRuns } from '../../../src/harness/node/index.ts'
import { EXPORT_FAILED_REPORT, openNodeSession } from '../../helpers/node-session.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'

const BLOCK = 'ikea-manualbook'
const SAMPLE = 'sample-00'
const caller = { project: BLOCK }
const TIMINGS = { openMs: 1, agentMs: 1, exportMs: 0, saveMs: 0, scoreMs: 0, scoreQueueMs: 0, scoreComputeMs: 0 }

let fixture: PackageFixture
let runs: string

beforeEach(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 1 })
  runs = await mkdtemp(join(tmpdir(), 'awb-recorded-ledger-'))
})
afterEach(async () => {
  await fixture.cleanup()
  await rm(runs, { recursive: true, force: true })
})

/** A shard's run with one finished sample (an error row: its export was not saved), as a real session records it. */
async function shardRun(): Promise<{ runDir: string; resultPath: string }> {
  const session = await openNodeSession(fixture.root, runs)
  await session.startSample(caller, BLOCK, SAMPLE)
  const response = await session.finishSample(caller, BLOCK, SAMPLE, EXPORT_FAILED_REPORT)
  await session.close('completed')
  return { runDir: response.runDir, resultPath: join(response.sampleDir, 'result.json') }
}

/** What a blob report says of the test: only its run directory is used, and only as a pointer. */
function reported(runDir: string, row: unknown = {}) {
  return { row, timings: TIMINGS, backend: 'cpu-cells', runDir }
}

describe('RecordedRuns', () => {
  it('reads the row, timings and failure the shard recorded, whatever the report claims', async () => {
    const { runDir, resultPath } = await shardRun()
    const recorded = JSON.parse(await readFile(resultPath, 'utf8')) as { metrics: unknown }
    // The report names the run from another machine's path: the run is found by its id in runsRoot.
    const entry = await new RecordedRuns(runs).entryOf(BLOCK, SAMPLE, reported(`/elsewhere/runs/${basename(runDir)}`, { forged: true }))
    expect(entry?.row).toEqual(recorded.metrics)
    expect(entry?.failure).toBe('export failed')
    expect(entry?.timings.openMs).toBe(1)
  })

  it('gives no row for a record whose seal fails (a forged result.json), and says why', async () => {
    const { runDir, resultPath } = await shardRun()
    const result = JSON.parse(await readFile(resultPath, 'utf8')) as { metrics: Record<string, unknown> }
    await writeFile(resultPath, JSON.stringify({ ...result, metrics: { ...result.metrics, SR: 1, PA: 1 } }))
    const recorded = new RecordedRuns(runs)
    expect(await recorded.entryOf(BLOCK, SAMPLE, reported(runDir))).toBeUndefined()
    expect(recorded.problems).toEqual([expect.stringMatching(new RegExp(`^${BLOCK} / ${SAMPLE}: its record in run ${basename(runDir)} fails its seal: .*result\\.json`))])
  })

  it('gives no row for a run that was not copied next to the reports, nor for a report without one', async () => {
    const recorded = new RecordedRuns(runs)
    expect(await recorded.entryOf(BLOCK, SAMPLE, reported('/ci/shard-2/runs/2026-01-01T000000.000Z-gone'))).toBeUndefined()
    expect(recorded.problems[0]).toMatch(/its run 2026-01-01T000000\.000Z-gone is not readable in .*; copy each shard's runs folder there before --merge-reports/)
    expect(await recorded.entryOf(BLOCK, SAMPLE, undefined)).toBeUndefined()
  })
})
