// Resuming a merged run (`AWB_RESUME=latest` after `--merge-reports`): the merged run is the newest, its shard runs'
// records are reported as recorded (each from the shard that made it), the rest run, and the new run continues the merge.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RecordedRuns } from '../../../src/harness/node/index.ts'
import { MergedRunWriter } from '../../../src/runs/index.ts'
import { EXPORT_FAILED_REPORT, openNodeSession } from '../../helpers/node-session.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'

const SAMPLE = 'sample-00'

let fixture: PackageFixture
let runs: string
beforeEach(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 1 })
  runs = await mkdtemp(join(tmpdir(), 'awb-resume-merged-'))
})
afterEach(async () => {
  await fixture.cleanup()
  await rm(runs, { recursive: true, force: true })
})

/** One shard run per block, each with its sample ended (an error row), then their merge; returns each shard's run. */
async function mergeOfShards(blocks: readonly string[]): Promise<{ merged: string; shardOf: Map<string, string> }> {
  const recorded = new RecordedRuns(runs)
  const shardOf = new Map<string, string>()
  for (const block of blocks) {
    const session = await openNodeSession(fixture.root, runs)
    await session.startSample({ project: block }, block, SAMPLE)
    const { runDir } = await session.finishSample({ project: block }, block, SAMPLE, EXPORT_FAILED_REPORT)
    await session.close('completed')
    shardOf.set(block, runDir)
    expect(await recorded.entryOf(block, SAMPLE, { runDir })).toBeDefined()
  }
  const writer = await MergedRunWriter.create({ runsRoot: runs, shards: await recorded.shards() })
  await writer.finish('completed')
  return { merged: writer.dir, shardOf }
}

describe('AWB_RESUME=latest after a merge', () => {
  it('reports the shards\' samples from the shard that recorded each, runs the rest, and continues the merged run', async () => {
    const { merged, shardOf } = await mergeOfShards(['ikea-manualbook', 'partnet-none'])
    const session = await openNodeSession(fixture.root, runs, { resume: 'latest' })
    for (const [block, shard] of shardOf) {
      expect(await session.samplePlan({ project: block }, block, SAMPLE)).toMatchObject({ kind: 'recorded', runDir: shard, row: { block, sample_id: SAMPLE, status: 'error' } })
    }
    const other = 'fantastic-breaks-none'
    expect(await session.samplePlan({ project: other }, other, SAMPLE)).toEqual({ kind: 'run' })
    await session.startSample({ project: other }, other, SAMPLE)
    const { runDir } = await session.finishSample({ project: other }, other, SAMPLE, EXPORT_FAILED_REPORT)
    await session.close('completed')
    expect(JSON.parse(await readFile(join(runDir, 'run.json'), 'utf8'))).toMatchObject({ source_run: merged })
  })
})
