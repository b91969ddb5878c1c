// An agent program (`{"command": [...]}`): the examples of docs/agents.md (examples/external-agent, Python and Node) run
// per sample against its MCP endpoint in Node, against a real WorldRuntime with reference pages, plus crash, silence,
// hang, a program that never reaches the endpoint, and a run where no sandbox can start (the sample is refused, the
// program never runs). The examples end to end through the browser, sandboxed, from an installed copy and against the
// do-nothing agent: user-project.test.ts.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { composePrompt, type ConversationEntry, type ReferencePage } from '../../src/agents/index.ts'
import { runExternalAgentOnRelay } from '../../src/agents/external/index.ts'
import { decodeEpisode } from '../../src/episode/index.ts'
import { createRuntimeRelay } from '../../src/mcp/index.ts'
import { findSample, openPackage, readEpisode, readPage, type BenchmarkPackage, type PackageSample } from '../../src/package/index.ts'
import { loadMujoco, WorldRuntime } from '../../src/world/index.ts'
import { createPackageFixture, type PackageFixture } from '../helpers/package-fixture.ts'
import { vitestCli } from '../helpers/vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const EXAMPLE = ['python3', join(ROOT, 'examples', 'external-agent', 'agent.py')] as const
const NODE_EXAMPLE = [process.execPath, join(ROOT, 'examples', 'external-agent', 'agent.mjs')] as const
const BLOCK = 'ikea-manualbook'

let fixture: PackageFixture
let pkg: BenchmarkPackage
let sample: PackageSample
let pages: ReferencePage[]
let scratch: string

beforeAll(async () => {
  fixture = await createPackageFixture({
    blocks: [{ name: BLOCK, source: 'ikea-manual', repoId: 'AssemblyWorld/source-2', configId: 'fixture', referenceMode: 'manualbook', pageCount: 2, samples: [{ id: 'sample-00', partIds: ['a', 'b'] }] }],
  })
  pkg = await openPackage(fixture.root)
  sample = findSample(pkg, BLOCK, 'sample-00')
  pages = await Promise.all(sample.pages.map(async page => ({ page: page.page, mimeType: 'image/png', bytes: await readPage(pkg, page) })))
  scratch = await mkdtemp(join(tmpdir(), 'awb-external-'))
})
afterAll(async () => {
  await fixture?.cleanup()
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

async function runProgram(command: readonly [string, ...string[]], options: { timeoutMs?: number } = {}) {
  const episode = await decodeEpisode(await readEpisode(pkg, sample), { source: sample.episodePath })
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode })
  try {
    const records: ConversationEntry[] = []
    const run = await runExternalAgentOnRelay({
      command,
      prompt: composePrompt('Assemble the supplied parts.\n'),
      relay: createRuntimeRelay({ runtime, referencePages: pages }),
      workspace: await mkdtemp(join(scratch, 'ws-')),
      sample: { block: BLOCK, sampleId: 'sample-00' },
      timeoutMs: options.timeoutMs,
      onRecord: entry => { records.push(entry) },
    })
    return { run, records, calls: runtime.exportEpisode().calls.map(call => call.name) }
  } finally {
    runtime.dispose()
  }
}

describe('external agent program', () => {
  it.each([['Python, stdlib only', EXAMPLE], ['Node, no dependencies', NODE_EXAMPLE]] as const)('the example (%s) reads its inputs, calls the tools over MCP and, in a world without a renderer, says it could not see', async (_language, example) => {
    const { run, records, calls } = await runProgram(example)
    expect(run.execution).toMatchObject({ status: 'completed', exit_code: 0, error: null, infrastructure_error: null, parse_errors: 0 })
    expect(run.execution.stderr).toContain('tools: list_pages, list_webmcp_tools, execute_webmcp_tool, read_manual_page; prompt of')
    expect(run.execution.stderr).toContain('; 2 reference pages')
    expect(run.toolCalls).toBe(4)
    // A Node WorldRuntime has no renderer: capture_scene answers unsupported_capability, and the example stops there.
    expect(calls).toEqual(['list_objects', 'move_camera', 'capture_scene'])
    expect(run.outcome).toMatchObject({ status: 'unable', summary: expect.stringContaining('Unsupported capability: capture_scene') as unknown })
    expect(records.filter(record => record.type === 'tool_call').map(record => record.type === 'tool_call' ? record.name : '')).toEqual(['list_pages', 'execute_webmcp_tool', 'execute_webmcp_tool', 'execute_webmcp_tool'])
    expect(records).toContainEqual({ type: 'event', event: { type: 'stdout', text: 'Done.' } })
    expect(records.at(-1)).toMatchObject({ type: 'message', role: 'assistant', content: expect.stringMatching(/"status": ?"unable"/) as unknown })
  })

  it('a crash is failed with its exit code; stderr is kept apart', async () => {
    const { run } = await runProgram([process.execPath, '-e', 'process.stderr.write("boom\\n"); process.exit(2)'])
    expect(run.execution).toMatchObject({ status: 'failed', exit_code: 2, final_answer: null, stderr: 'boom\n' })
    expect(run.execution.error).toContain('exited with code 2')
  })

  it('a program that never reaches its endpoint is an infrastructure failure, whatever it prints', async () => {
    const { run } = await runProgram([process.execPath, '-e', 'console.log(JSON.stringify({status: "completed", summary: "trust me"}))'])
    expect(run.execution.status).toBe('failed')
    expect(run.execution.infrastructure_error).toContain('never reached its MCP endpoint')
  })

  it('a hang past the limit is a timeout and its process group is killed', async () => {
    const { run } = await runProgram([process.execPath, '-e', 'setInterval(() => undefined, 1000)'], { timeoutMs: 1_000 })
    expect(run.execution.status).toBe('timeout')
    expect(run.execution.error).toContain('TimeoutError')
  })

  it('through the browser: when no sandbox can start, the sample is refused with how to enable one and the program never runs', async () => {
    const runs = join(scratch, 'runs-no-sandbox')
    const marker = join(scratch, 'external-program-ran')
    const program = ['node', '-e', `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`]
    const output = await new Promise<string>((done) => {
      execFile(process.execPath, vitestCli('run', ['--project', BLOCK]), {
        cwd: ROOT,
        env: { ...process.env, AWB_BENCHMARK: fixture.root, AWB_RUNS: runs, AWB_AGENT: JSON.stringify({ command: program }), AWB_BWRAP: join(scratch, 'no-such-bwrap'), AWB_SCORING_WORKERS: '1', GITHUB_STEP_SUMMARY: '', FORCE_COLOR: '0', NO_COLOR: '1', AWB_REPORT: '0' },
        maxBuffer: 64 * 1024 * 1024,
      }, (_error, stdout, stderr) => done(`${stdout}\n${stderr}`))
    })
    const [runId] = await readdir(runs)
    const result = JSON.parse(await readFile(join(runs, runId!, 'blocks', BLOCK, 'samples', 'sample-00', 'result.json'), 'utf8')) as { status: string, execution: { status: string, error: string } }
    expect(result.status, output).toBe('failed')
    expect(result.execution.error).toMatch(/no-such-bwrap was not found.*sudo apt-get install bubblewrap.*kernel\.apparmor_restrict_unprivileged_userns=0.*AWB_SANDBOX=off/)
    expect(existsSync(marker)).toBe(false)
  }, 240_000)
})
