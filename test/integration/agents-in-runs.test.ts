// API and CLI agents in the benchmark run as users run it (`vitest run` in a child process, real Chromium) on a
// one-sample package: an API agent against a local model server speaking the provider's wire format, a CLI agent (a
// fake binary in the real sandbox) reaching the page tools over MCP. Each test is its own child run, all at once.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { decodeEpisode, latestFrame, readBenchmarkPoses } from '../../src/episode/index.ts'
import { scriptedAssemblyConversation, SCRIPTED_POSE, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.ts'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture } from '../helpers/package-fixture.ts'
import { runBenchmark, type ChildRun } from '../helpers/run-benchmark.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BLOCKS = defaultFixtureBlocks(1).filter(block => block.name === 'partnet-none').map(block => ({ ...block, samples: block.samples.map(s => ({ ...s, partIds: ['a', 'b'] })) }))
/** Planted in every evaluation.json: it must never reach the page, a prompt, a model request or a run record. */
const CANARY = 'GROUND-TRUTH-CANARY-7f3e9a'

let fixture: PackageFixture
let work: string

beforeAll(async () => {
  fixture = await createPackageFixture({ blocks: BLOCKS, edit: { evaluation: (_block, _id, json) => { json.provenance = { created_at: CANARY, code_commit: CANARY, dataset: CANARY } } } })
  work = await mkdtemp(join(tmpdir(), 'awb-agents-in-runs-'))
  await mkdir(join(work, 'demos', 'partnet-none'), { recursive: true })
  await writeFile(join(work, 'demos', 'partnet-none', 'sample-00.calls.jsonl'), '{"name":"get_scene"}\n')
})
afterAll(async () => {
  await fixture.cleanup()
  await rm(work, { recursive: true, force: true })
})

function vitest(args: string[], env: Record<string, string>): Promise<ChildRun> {
  return runBenchmark(args, { AWB_BENCHMARK: fixture.root, AWB_DEMONSTRATIONS: join(work, 'demos'), AWB_SCORING_WORKERS: '1', ...env })
}

async function writtenSummary(output: string): Promise<Record<string, unknown>> {
  const match = /awb: wrote (\S+summary\.json)/.exec(output)
  expect(match, output).not.toBeNull()
  return JSON.parse(await readFile(match![1]!, 'utf8'))
}

describe.concurrent('agents in a benchmark run', () => {
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
