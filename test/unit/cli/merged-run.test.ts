// `awb status`, `awb eval` and `awb report` on a merged run (`--merge-reports`): the one folder the merge writes is
// handed to each, which read the shard runs it names beside it; a missing shard run is an error that says which one
// and where to copy it, before anything is written.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RecordedRuns } from '../../../src/harness/node/index.ts'
import { MergedRunWriter } from '../../../src/runs/index.ts'
import { EXPORT_FAILED_REPORT, openNodeSession } from '../../helpers/node-session.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'
import { runCli } from '../../helpers/run-cli.ts'

const SHARDS = [['ikea-manualbook', 'partnet-none'], ['fantastic-breaks-none']] as const

let pkg: PackageFixture
let work: string
let runs: string
beforeAll(async () => {
  pkg = await createPackageFixture({ samplesPerBlock: 1 })
})
afterAll(async () => {
  await pkg?.cleanup()
})
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'awb-merged-cli-'))
  runs = join(work, 'runs')
})
afterEach(async () => {
  await rm(work, { recursive: true, force: true })
})

/**
 * Shard runs as two machines record them (a real session each, every sample an error row: its export failed), then
 * the merged run as the merge writes it: the shard runs the reports name, read by RecordedRuns.
 */
async function mergedRun(): Promise<{ merged: string; shards: string[] }> {
  const reported: { block: string; runDir: string }[] = []
  for (const blocks of SHARDS) {
    const session = await openNodeSession(pkg.root, runs)
    for (const block of blocks) {
      await session.startSample({ project: block }, block, 'sample-00')
      const response = await session.finishSample({ project: block }, block, 'sample-00', EXPORT_FAILED_REPORT)
      reported.push({ block, runDir: response.runDir })
    }
    await session.close('completed')
  }
  const recorded = new RecordedRuns(runs)
  for (const { block, runDir } of reported) {
    expect(await recorded.entryOf(block, 'sample-00', { row: {}, timings: {}, backend: 'cpu', runDir })).toBeDefined()
  }
  const shards = await recorded.shards()
  const writer = await MergedRunWriter.create({ runsRoot: runs, shards })
  await writer.finish('completed')
  return { merged: writer.dir, shards: shards.map(shard => join(runs, shard.id)) }
}

describe('a merged run handed to the awb commands', () => {
  it('awb status shows every shard sample, names the shards and their seals', async () => {
    const { merged, shards } = await mergedRun()
    expect(shards).toHaveLength(2)
    const text = await runCli(['status', merged, '--benchmark', pkg.root])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toMatch(new RegExp(`: completed, \\d+ s, a merge of 2 shard runs \\(${shards.map(shard => basename(shard)).join(', ')}\\)`))
    expect(text.stdout).toMatch(/^ikea-manualbook\s+0\s+1\s+0\s+0\s+0\s+0\s/m)
    expect(text.stdout).toMatch(/^fantastic-breaks-none\s+0\s+1\s/m)
    expect(text.stdout).toMatch(/^seals \(this run\): a merge holds no sample of its own/m)
    for (const shard of shards) expect(text.stdout).toContain(`seals (${shard}): `)
    const json = JSON.parse((await runCli(['status', merged, '--json'])).stdout) as Record<string, unknown>
    expect(json).toMatchObject({ status: 'completed', merge_of: shards, counts: { failed: 3, pending: 2 } })
    expect(Object.keys(json.samples as object)).toHaveLength(5)
  })

  it('awb status with no run takes the newest run, the merged one', async () => {
    const { merged } = await mergedRun()
    const { code, stdout } = await runCli(['status', '--runs', runs])
    expect(code).toBe(0)
    expect(stdout).toContain(`run ${merged}: completed`)
  })

  it('awb eval scores the shard runs\' records through the merged run, on the package it recorded', async () => {
    const { merged, shards } = await mergedRun()
    const output = join(work, 'eval')
    const { code, stderr } = await runCli(['eval', merged, '--output', output, '--backend', 'cpu', '--workers', '0'])
    // Every sample is an error row (no export was saved): exit 1, the rows written all the same.
    expect(code, stderr).toBe(1)
    const rows = (await readFile(join(output, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { block: string; run: string | null })
    expect(rows.map(row => row.block)).toEqual(['fantastic-breaks-none', 'ikea-manualbook', 'partnet-none'])
    const evaluation = JSON.parse(await readFile(join(output, 'eval.json'), 'utf8')) as { runs: string[] }
    expect(evaluation.runs).toEqual(expect.arrayContaining([merged, ...shards]))
  })

  it('a shard run that was not copied beside the merged run: each command says which and where, and writes nothing', async () => {
    const { merged, shards } = await mergedRun()
    await rm(shards[1]!, { recursive: true })
    const expected = `shard run ${basename(shards[1]!)}, which is not beside it; copy that shard's runs folder so that ${shards[1]!} holds its run.json`
    const status = await runCli(['status', merged])
    expect(status.code).toBe(1)
    expect(status.stderr).toContain('[RUN_MERGE_SHARD_MISSING]')
    expect(status.stderr).toContain(expected)
    const report = await runCli(['report', merged, '--no-captures'])
    expect(report.code).toBe(1)
    expect(report.stderr).toContain(expected)
    // The merged run as its merge left it: its run.json and its answers mark (src/shared/answer-folders.ts).
    expect((await readdir(merged)).sort()).toEqual(['AWB-ANSWERS.txt', 'run.json'])
    const evaluation = await runCli(['eval', merged, '--output', join(work, 'eval')])
    expect(evaluation.code).toBe(1)
    expect(evaluation.stderr).toContain(expected)
    await expect(readdir(join(work, 'eval'))).rejects.toThrow(/ENOENT/)
  })
})
