// End to end: the benchmark config run as users run it (`vitest run` in a child process) on a small package.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReportData } from '../../src/report/html/index.ts'
import { runCli } from '../helpers/run-cli.ts'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture } from '../helpers/package-fixture.ts'
import { runBenchmark, type ChildRun } from '../helpers/run-benchmark.ts'

const BLOCKS = defaultFixtureBlocks(1).map(block => ({ ...block, samples: block.samples.map(s => ({ ...s, partIds: ['a', 'b'] })) }))
const PROJECTS = BLOCKS.flatMap(block => ['--project', block.name])
/** Planted in every evaluation.json: it must never reach the page or a run record. */
const CANARY = 'GROUND-TRUTH-CANARY-7f3e9a'

/** Per block, the replay script of its one sample (`sample-00`). */
const SCRIPTS: Record<string, string> = {
  'partnet-none': '{"name":"get_scene"}\n{"name":"set_object_pose","arguments":{"id":"part-0002","position":[0,0,0]}}\n',
  // Part b pushed far away: geometry fails (SR 0), which a threshold turns into a failed test.
  'partnet-final-image': '{"name":"translate_objects","arguments":{"ids":["part-0002"],"delta":[3,0,0]}}\n',
  // A script the replay agent cannot parse: the agent crashes; its (untouched) world is still scored.
  'ikea-manualbook': '{"name":"get_scene"}\nnot json\n',
  'assemblybench-manualbook': '{"name":"list_objects"}\n',
  'fantastic-breaks-none': '{"name":"capture_scene"}\n',
}

let fixture: PackageFixture
let work: string

beforeAll(async () => {
  fixture = await createPackageFixture({ blocks: BLOCKS, edit: { evaluation: (_block, _id, json) => { json.provenance = { created_at: CANARY, code_commit: CANARY, dataset: CANARY } } } })
  work = await mkdtemp(join(tmpdir(), 'awb-main-job-'))
  for (const [block, script] of Object.entries(SCRIPTS)) {
    await mkdir(join(work, 'demos', block), { recursive: true })
    await writeFile(join(work, 'demos', block, 'sample-00.calls.jsonl'), script)
  }
})
afterAll(async () => {
  await fixture.cleanup()
  await rm(work, { recursive: true, force: true })
})

function vitest(args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return runBenchmark(args, { AWB_BENCHMARK: fixture.root, AWB_DEMONSTRATIONS: join(work, 'demos'), AWB_RUNS: join(work, 'runs'), AWB_SCORING_WORKERS: '1', ...env })
}

async function writtenSummary(output: string): Promise<Record<string, unknown>> {
  const match = /awb: wrote (\S+summary\.json)/.exec(output)
  expect(match, output).not.toBeNull()
  return JSON.parse(await readFile(match![1]!, 'utf8'))
}

// Every test is its own child run (or reads the one unsharded run) and mostly waits on its browsers: they run at once,
// each with its own runs folder.
describe.concurrent('the main job', () => {
  let unsharded: ChildRun

  beforeAll(async () => {
    unsharded = await vitest([...PROJECTS, '--reporter=default', '--reporter=junit', `--outputFile.junit=${join(work, 'junit.xml')}`], {
      AWB_RUNS: join(work, 'runs-unsharded'),
      AWB_THRESHOLDS: '{"*": {"SR": 1, "PA": 0.99}}',
      AWB_GATES: '{"overall": {"SR": 0.9}, "blocks": {"partnet-none": {"PA": 1}}}',
      // The one child run of the suite that writes the end-of-run HTML report (the helpers turn it off).
      AWB_REPORT: '1',
    })
  }, 300_000)

  it('runs every block, fails the threshold and the crashing agent, and only those', () => {
    expect(unsharded.output).toMatch(/Tests\s+2 failed \| 3 passed \(5\)/)
    expect(unsharded.output).toMatch(/partnet-final-image \/ sample-00.*SR of partnet-final-image \/ sample-00 \(threshold 1\)|SR of partnet-final-image \/ sample-00 \(threshold 1\)/s)
    // Every missed threshold of a sample is reported, not only the first.
    expect(unsharded.output).toMatch(/PA of partnet-final-image \/ sample-00 \(threshold 0\.99\)/)
    expect(unsharded.output).toMatch(/ikea-manualbook \/ sample-00: the agent failed: Error: .*line 2: not valid JSON/)
    // The root config and each block project's load the plugin: the package is still verified once per run.
    expect(unsharded.output.match(/^awb: verified package /gm), unsharded.output).toHaveLength(1)
  })

  it('fails the run on a gate, naming the gate and the measured value', () => {
    expect(unsharded.code).not.toBe(0)
    expect(unsharded.output).toMatch(/^\s+overall SR ≥ 0\.9\s+0\.875\s+FAILED$/m)
    expect(unsharded.output).toMatch(/^\s+block partnet-none PA ≥ 1\s+1\s+passed$/m)
    expect(unsharded.output).toMatch(/^awb gates FAILED: 1 of 2 missed: overall SR ≥ 0\.9 \(measured 0\.875\)/m)
    expect(unsharded.output).not.toMatch(/Unhandled Error/)
  })

  it('prints the aggregate table and writes the official summary with the crashed sample scored', async () => {
    expect(unsharded.output).toMatch(/overall \(official\)\s+87\.5%/)
    const summary = await writtenSummary(unsharded.output)
    expect(summary).toMatchObject({ status: 'complete', attempted: 5, scored: 5, official_overall: { SR: 0.875 } })
    expect((summary.blocks as Record<string, { SR: number }>)['ikea-manualbook']?.SR).toBe(1)
    expect(unsharded.output).toMatch(/harness overhead per sample \(open \+ export \+ save\): median \d+\.\d+ s/)
    // The end-of-run HTML report, with every sample's final scene rendered.
    const report = /^awb: HTML report (\S+index\.html) \(open it from disk\)$/m.exec(unsharded.output)?.[1]
    expect(report, unsharded.output).toBeDefined()
    const html = await readFile(report!, 'utf8')
    const data = JSON.parse(html.slice(html.indexOf('id="awb-data">') + 'id="awb-data">'.length, html.indexOf('</script>'))) as ReportData
    expect(data.samples.map(sample => sample.key).sort()).toEqual(BLOCKS.map(block => `${block.name}/sample-00`).sort())
    expect(data.samples.filter(sample => sample.capture_kind !== 'final').map(sample => sample.key)).toEqual([])
  })

  it('writes one JUnit testcase per sample with the block as its classname and in its name, and the metrics as properties', async () => {
    const junit = await readFile(join(work, 'junit.xml'), 'utf8')
    const cases = [...junit.matchAll(/<testcase classname="([^"]*)" name="([^"]+)"/g)].map(m => `${m[1]}: ${m[2]}`)
    expect(cases.sort()).toEqual(BLOCKS.map(b => `${b.name}: ${b.name} &gt; sample-00`).sort())
    expect(junit).toMatch(/<property name="SR" value="0">/)
    expect(junit).toMatch(/<property name="SCD" value="[^"]+">/)
  })

  it('gives the same aggregate from two shards merged as from one run', async () => {
    const reports = join(work, 'blobs')
    // The shards run at once, as on two CI machines (each its own child run, both in one runs folder).
    const shardOutputs = await Promise.all(['1/2', '2/2'].map(async (shard) => {
      const run = await vitest([...PROJECTS, `--shard=${shard}`, '--reporter=blob', `--outputFile.blob=${join(reports, `blob-${shard.replace('/', '-')}.json`)}`], { AWB_RUNS: join(work, 'runs-sharded') })
      expect(run.output).not.toMatch(/Startup Error/)
      return `--- shard ${shard} ---\n${run.output}`
    }))
    // Each block in exactly one shard, whatever order each process listed the projects in (plugin/vitest-compat/block-shards.ts).
    const blocksRun = (output: string) => [...output.matchAll(/^awb (\S+) \d+\/\d+ \S+: SR /gm)].map(match => match[1]!).sort()
    expect(blocksRun(shardOutputs.join('\n')), shardOutputs.join('\n')).toEqual(blocksRun(unsharded.output))
    const merged = await vitest(['--merge-reports', reports], { AWB_RUNS: join(work, 'runs-sharded') })
    const [one, two] = [await writtenSummary(unsharded.output), await writtenSummary(merged.output)]
    // Wall-clock durations differ between runs by nature; every score and count must be identical.
    for (const summary of [one, two]) delete (summary.resources as Record<string, unknown>).duration_seconds
    // On a difference, what each shard and the merge printed says which sample went missing, and why.
    const printed = [...shardOutputs, `--- merge ---\n${merged.output}`].join('\n')
    expect(two, printed).toEqual(one)

    // The merge is one folder, a run of its own naming the shard runs it reads: awb status and awb report take it.
    const mergedRun = /^awb: merged run (\S+) \(its rows are the records of 2 shard runs: /m.exec(merged.output)?.[1]
    expect(mergedRun, printed).toBeDefined()
    expect(JSON.parse(await readFile(join(mergedRun!, 'run.json'), 'utf8'))).toMatchObject({ status: 'completed', merge: { shards: [{ seals: { count: expect.any(Number) } }, { seals: { count: expect.any(Number) } }] } })
    const status = await runCli(['status', mergedRun!, '--json'])
    expect(status.code, status.stderr).toBe(0)
    const counts = JSON.parse(status.stdout) as { samples: Record<string, string>; merge_of: string[]; seals: { chain_problems: string[] }[] }
    // Every sample, in the state the unsharded run recorded it.
    const single = JSON.parse((await runCli(['status', /awb: wrote (\S+)\/summary\.json/.exec(unsharded.output)![1]!, '--json'])).stdout) as { samples: Record<string, string> }
    expect(Object.keys(counts.samples).sort()).toEqual(BLOCKS.map(block => `${block.name}/sample-00`).sort())
    expect(counts.samples).toEqual(single.samples)
    expect(counts.merge_of).toHaveLength(2)
    expect(counts.seals.flatMap(seals => seals.chain_problems)).toEqual([])
    const table = await runCli(['status', mergedRun!])
    expect(table.stdout).toMatch(/a merge of 2 shard runs/)
    const report = await runCli(['report', mergedRun!])
    expect(report.code, report.stderr).toBe(0)
    const html = await readFile(join(mergedRun!, 'report', 'index.html'), 'utf8')
    const data = JSON.parse(html.slice(html.indexOf('id="awb-data">') + 'id="awb-data">'.length, html.indexOf('</script>'))) as ReportData
    expect(data.samples.map(sample => sample.key).sort()).toEqual(BLOCKS.map(block => `${block.name}/sample-00`).sort())
    expect(data.records).toMatchObject({ sealed: BLOCKS.length, flagged: [] })
  }, 300_000)
})
