// End to end: the benchmark config run as users run it (`vitest run` in a child process) on a small package.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { decodeEpisode, latestFrame, readBenchmarkPoses } from '../../src/episode/index.ts'
import type { ReportData } from '../../src/report/html/index.ts'
import { runCli } from '../helpers/run-cli.ts'
import { scriptedAssemblyConversation, SCRIPTED_POSE, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.ts'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture } from '../helpers/package-fixture.ts'
import { runBenchmark, type ChildRun } from '../helpers/run-benchmark.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BLOCKS = defaultFixtureBlocks(1).map(block => ({ ...block, samples: block.samples.map(s => ({ ...s, partIds: ['a', 'b'] })) }))
const PROJECTS = BLOCKS.flatMap(block => ['--project', block.name])
/** Planted in every evaluation.json: it must never reach the page, a prompt, a model request or a run record. */
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
    const shardOutputs: string[] = []
    for (const shard of ['1/2', '2/2']) {
      const run = await vitest([...PROJECTS, `--shard=${shard}`, '--reporter=blob', `--outputFile.blob=${join(reports, `blob-${shard.replace('/', '-')}.json`)}`], { AWB_RUNS: join(work, 'runs-sharded') })
      expect(run.output).not.toMatch(/Startup Error/)
      shardOutputs.push(`--- shard ${shard} ---\n${run.output}`)
    }
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

  describe('API agents through the browser', () => {
    it.each(['openai', 'anthropic'] as const)('%s: a scripted tool-calling model (with a capture image) assembles a sample that is then scored, and never sees ground truth', async (provider) => {
      // Its own model server: the two providers' runs are at once.
      const server: FakeModelServer = await startFakeModelServer()
      onTestFinished(() => server.close())
      server.script(provider, scriptedAssemblyConversation(provider))
      const run = await vitest(['--project', 'partnet-none'], {
        AWB_RUNS: join(work, `runs-${provider}`),
        AWB_AGENT: `${provider}:scripted-model`,
        OPENAI_BASE_URL: server.openaiBaseUrl, ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
        OPENAI_API_KEY: 'test-key-openai', ANTHROPIC_API_KEY: 'test-key-anthropic',
      })
      expect(run.output).toMatch(/Tests\s+1 passed \(1\)/)
      expect(server.requests.map(r => r.provider)).toEqual([provider, provider, provider, provider])
      const last = JSON.stringify(server.requests.at(-1)?.body)
      expect(last).toMatch(/image/)
      expect(last).toContain('set_object_pose')
      const summary = await writtenSummary(run.output)
      expect(summary).toMatchObject({ attempted: 1, scored: 1 })
      const runDir = /awb: wrote (\S+)\/summary\.json/.exec(run.output)![1]!
      const sampleDir = join(runDir, 'blocks', 'partnet-none', 'samples', 'sample-00')
      const conversation = await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')
      expect(conversation.match(/"type":"tool_call"/g)).toHaveLength(3)
      const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8'))
      expect(result).toMatchObject({ status: 'completed', agent_outcome: { status: 'completed' }, execution: { usage: expect.objectContaining({ input_tokens: expect.any(Number) }) } })
      // The model moved part-0002 where it said: the saved final episode holds that pose.
      const final = await decodeEpisode(await readFile(join(sampleDir, 'final.episode.zip')))
      expect(Array.from(readBenchmarkPoses(latestFrame(final).integration, 2).positions.subarray(3, 6))).toEqual(SCRIPTED_POSE.position)
      for (const text of [JSON.stringify(server.requests), conversation, await readFile(join(sampleDir, 'prompt.txt'), 'utf8'), await readFile(join(sampleDir, 'input.json'), 'utf8')]) {
        expect(text).not.toContain(CANARY)
      }
    }, 300_000)
  })

  describe('CLI agents through the browser', () => {
    const FAKE_CLI = join(ROOT, 'test', 'helpers', 'fake-agent-cli.mjs')

    it.each(['codex', 'claude'] as const)('%s: the agent CLI reaches the page tools over MCP, its run is recorded and the sample scored', async (cli) => {
      const run = await vitest(['--project', 'partnet-none'], {
        AWB_RUNS: join(work, `runs-${cli}`),
        AWB_AGENT: cli,
        AWB_MODEL: 'fake-model',
        AWB_AGENT_COMMAND: JSON.stringify([process.execPath, FAKE_CLI]),
      })
      expect(run.output).toMatch(/Tests\s+1 passed \(1\)/)
      const summary = await writtenSummary(run.output)
      expect(summary).toMatchObject({ attempted: 1, scored: 1 })
      const runDir = /awb: wrote (\S+)\/summary\.json/.exec(run.output)![1]!
      const sampleDir = join(runDir, 'blocks', 'partnet-none', 'samples', 'sample-00')
      const conversation = await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')
      expect(conversation.match(/"type":"tool_call"/g)?.length).toBeGreaterThanOrEqual(2)
      expect(conversation).not.toContain(CANARY)
      const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8'))
      expect(result).toMatchObject({ status: 'completed', archive: { status: 'saved' } })
      // The fake agent's default script translates part-0001 by 0.1 along x through execute_webmcp_tool.
      const final = await decodeEpisode(await readFile(join(sampleDir, 'final.episode.zip')))
      expect(readBenchmarkPoses(latestFrame(final).integration, 2).positions[0]).toBeCloseTo(0.1, 12)
    }, 300_000)

    it('a crashing agent CLI fails its sample with a clear message, and its untouched world is still scored', async () => {
      const run = await vitest(['--project', 'partnet-none'], {
        AWB_RUNS: join(work, 'runs-crashing-cli'),
        AWB_AGENT: 'codex', AWB_MODEL: 'fake-model', FAKE_AGENT_MODE: 'crash',
        AWB_AGENT_COMMAND: JSON.stringify([process.execPath, FAKE_CLI]),
        // The sandboxed CLI sees only allow-listed variables: the fake's mode is passed by name.
        AWB_AGENT_ENV: JSON.stringify(['FAKE_AGENT_MODE']),
      })
      expect(run.output).toMatch(/Tests\s+1 failed \(1\)/)
      expect(run.output).toMatch(/partnet-none \/ sample-00: the agent failed: .*simulated crash/)
      expect(await writtenSummary(run.output)).toMatchObject({ attempted: 1, scored: 1 })
    }, 300_000)
  })
})
