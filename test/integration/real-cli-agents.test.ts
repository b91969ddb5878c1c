// The real agent CLIs (Claude Code and Codex CLI, every tested version of each, installed on demand into a cache
// outside node_modules) run one sample each end to end through the browser, as users run the benchmark (`vitest run`
// in a child process), against a local model server speaking the providers' streamed wire formats. Checks what the
// CLIs must do with default settings: reach the tools (more than zero calls), finish, get scored, full result.json;
// every version gets the same assertions. The fixture and the scratch folder are shared by all; each version has its
// own model server, and the versions run at once.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { runCliAgent, TESTED_CLI_VERSIONS, type CliAgentKind } from '../../src/agents/cli/index.ts'
import { composePrompt } from '../../src/agents/index.ts'
import { checkAgentCli } from '../../src/cli/commands/doctor.ts'
import { decodeEpisode } from '../../src/episode/index.ts'
import { ensureAgentCli, type InstalledCli } from '../helpers/agent-cli-install.ts'
import { DEFAULT_TOOL_SCRIPT, SSE_FINAL_ANSWER, startSseModelServer, type SseModelServer } from '../helpers/fake-sse-model-server.ts'
import { createPackageFixture, type PackageFixture } from '../helpers/package-fixture.ts'
import { vitestCli } from '../helpers/vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BLOCK = 'partnet-none'
/** Installing every tested version of both CLIs (~1 GB) on a cold cache; a warm cache answers at once. */
const INSTALL_TIMEOUT_MS = 900_000
/** One sample with a real CLI: Vitest start-up, browser, the CLI, scoring (Codex adds its ~6 s WebSocket retries). */
const RUN_TIMEOUT_MS = 240_000

let fixture: PackageFixture
let work: string
/** Every tested version of each CLI, keyed `<kind>@<version>`. */
const clis = new Map<string, InstalledCli>()

function installed(kind: CliAgentKind, version: string): InstalledCli {
  const cli = clis.get(`${kind}@${version}`)
  if (cli === undefined) throw new Error(`${kind}@${version} was not installed`)
  return cli
}

beforeAll(async () => {
  fixture = await createPackageFixture({
    blocks: [{ name: BLOCK, source: 'partnet', repoId: 'AssemblyWorld/source-1', configId: 'fixture', referenceMode: 'none', samples: [{ id: 'sample-00', partIds: ['a', 'b'] }] }],
  })
  work = await mkdtemp(join(tmpdir(), 'awb-real-cli-'))
  // Each version has its own cache folder, so a cold cache installs them side by side.
  await Promise.all((['claude', 'codex'] as const).flatMap(kind => TESTED_CLI_VERSIONS[kind].versions.map(async (version) => {
    clis.set(`${kind}@${version}`, await ensureAgentCli(kind, version))
  })))
}, INSTALL_TIMEOUT_MS)

afterAll(async () => {
  await fixture?.cleanup()
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

interface ChildRun { code: number, output: string, runDir: string }

/** `vitest run --project partnet-none` with the CLI's folder first on PATH (how a user installs it) and a private HOME. */
async function runBenchmark(kind: CliAgentKind, cli: InstalledCli, env: Record<string, string>): Promise<ChildRun> {
  const home = join(work, `home-${kind}@${cli.version}`)
  const runs = join(work, `runs-${kind}@${cli.version}`)
  await mkdir(home, { recursive: true })
  return new Promise((done) => {
    execFile(process.execPath, vitestCli('run', ['--project', BLOCK]), {
      cwd: ROOT,
      env: {
        ...process.env,
        PATH: `${cli.binDir}${delimiter}${process.env.PATH ?? ''}`,
        HOME: home, CODEX_HOME: home, XDG_CONFIG_HOME: join(home, '.config'),
        AWB_BENCHMARK: fixture.root, AWB_RUNS: runs, AWB_AGENT: kind, AWB_SCORING_WORKERS: '1', AWB_TIMEOUT_SECONDS: '180',
        GITHUB_STEP_SUMMARY: '', FORCE_COLOR: '0', NO_COLOR: '1', AWB_REPORT: '0',
        ...env,
      },
      maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => {
      void readdir(runs).then(dirs => done({ code: error === null ? 0 : 1, output: `${stdout}\n${stderr}`, runDir: join(runs, dirs[0] ?? 'missing') }), () => done({ code: 1, output: `${stdout}\n${stderr}`, runDir: runs }))
    })
  })
}

async function sampleRecords(runDir: string): Promise<{ result: Record<string, unknown>, conversation: Record<string, unknown>[], finalCalls: string[] }> {
  const dir = join(runDir, 'blocks', BLOCK, 'samples', 'sample-00')
  const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as Record<string, unknown>
  const conversation = (await readFile(join(dir, 'conversation.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
  const final = await decodeEpisode(new Uint8Array(await readFile(join(dir, 'final.episode.zip'))), { source: 'final' })
  return { result, conversation, finalCalls: final.calls.map(call => call.name) }
}

/** What every successful CLI sample must record: the scripted tool calls reached the world and were scored. */
function expectCompleteSample(records: Awaited<ReturnType<typeof sampleRecords>>): void {
  const { result, conversation, finalCalls } = records
  expect(result).toMatchObject({
    status: 'completed',
    tool_calls: DEFAULT_TOOL_SCRIPT.length,
    archive: { status: 'saved', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown },
    agent_outcome: { status: 'completed' },
    execution: { status: 'completed', exit_code: 0, parse_errors: 0, agent_error: null, error: null, infrastructure_error: null, final_answer: SSE_FINAL_ANSWER },
  })
  expect(typeof (result.execution as { stderr?: unknown }).stderr).toBe('string')
  expect(conversation.filter(entry => entry.type === 'tool_call').map(entry => entry.name)).toEqual(DEFAULT_TOOL_SCRIPT.map(step => step.tool))
  expect(finalCalls).toEqual(['translate_objects', 'get_scene'])
}

/** `awb doctor`'s row for the CLI with only this version on PATH: named, tested, and its model offered the four tools. */
async function expectDoctorTested(kind: CliAgentKind, cli: InstalledCli, tools: string[]): Promise<void> {
  const home = join(work, `home-doctor-${kind}@${cli.version}`)
  await mkdir(home, { recursive: true })
  const check = await checkAgentCli(kind, { ...process.env, HOME: home, CODEX_HOME: home, PATH: [cli.binDir, process.env.PATH ?? ''].join(delimiter) })
  expect(check).toMatchObject({ status: 'ok', data: { version: expect.stringContaining(cli.version) as unknown, semver: cli.version, tested: true, tools } })
  expect(check.detail).toMatch(/, tested; its model is offered the 4 benchmark tools/)
}

/** An MCP server that cannot connect is never a pass: an infrastructure failure with the reason. */
async function expectUnreachableServerFails(kind: CliAgentKind, cli: InstalledCli): Promise<void> {
  // Its own model server: the version's other tests read theirs' request log at the same time.
  const server = await startSseModelServer()
  onTestFinished(() => server.close())
  const home = join(work, `home-unreachable-${kind}@${cli.version}`)
  await mkdir(home, { recursive: true })
  const run = await runCliAgent({
    kind,
    model: kind === 'claude' ? 'claude-fake' : 'gpt-fake',
    prompt: composePrompt('Assemble the supplied parts.\n'),
    pages: [],
    // Nothing listens on port 9 of the loopback: the stdio bridge starts, its endpoint never answers.
    mcp: { url: 'http://127.0.0.1:9/unreachable/mcp' },
    workspace: await mkdtemp(join(work, 'ws-')),
    env: { ...process.env, HOME: home, CODEX_HOME: home, ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'sk-ant-fake', OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake', CODEX_API_KEY: '' },
    executable: { command: cli.bin },
    timeoutMs: 120_000,
    mcpActivity: () => ({ listings: 0, calls: 0 }),
    onRecord: () => undefined,
  })
  expect(run.execution.status).toBe('failed')
  // Claude reports the server `failed` in its init event; Codex (server `required`) never lists any tool.
  expect(run.execution.infrastructure_error).toMatch(kind === 'claude' ? /the assembly MCP server was "failed"/ : /never reached the assembly MCP server/)
  expect(run.execution.error).toMatch(/^InfrastructureError: /)
}

// Each version's runs are their own (model server, HOME, runs folder): the versions run at once.
describe.concurrent.each(TESTED_CLI_VERSIONS.claude.versions)('Claude Code %s through the browser', (version) => {
  let server: SseModelServer
  beforeAll(async () => { server = await startSseModelServer() })
  afterAll(async () => { await server?.close() })

  it('connects the MCP server before its first request, calls the tools, is scored', async () => {
    const run = await runBenchmark('claude', installed('claude', version), { AWB_MODEL: 'claude-fake', ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'sk-ant-fake' })
    expect(run.output).toMatch(/Tests\s+1 passed \(1\)/)
    const records = await sampleRecords(run.runDir)
    expectCompleteSample(records)
    // The first turn of the conversation (no tool result yet) already offered the four tools: blocking MCP connection.
    const first = server.conversationRequests()[0]
    expect(JSON.stringify(first?.body.messages)).not.toContain('tool_result')
    expect((first?.body.tools as { name: string }[]).map(tool => tool.name).sort()).toEqual(['mcp__assembly__execute_webmcp_tool', 'mcp__assembly__list_pages', 'mcp__assembly__list_webmcp_tools', 'mcp__assembly__read_manual_page'])
    expect(records.conversation).toContainEqual(expect.objectContaining({ type: 'session', mcp_servers: [{ name: 'assembly', status: 'connected' }] }))
    expect(records.result.execution).toMatchObject({ cost_usd: expect.any(Number) as unknown, usage: expect.objectContaining({ input_tokens: expect.any(Number) as unknown }) })
    // The tool results reached the model as chrome-devtools-mcp's text.
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('## Pages\\n1: ')
  }, RUN_TIMEOUT_MS)

  it('awb doctor names the version as tested, and the real MCP handshake offers its model the four tools', async () => {
    await expectDoctorTested('claude', installed('claude', version), ['mcp__assembly__execute_webmcp_tool', 'mcp__assembly__list_pages', 'mcp__assembly__list_webmcp_tools', 'mcp__assembly__read_manual_page'])
  }, RUN_TIMEOUT_MS)

  it('with an MCP server that cannot connect: never a pass, an infrastructure failure with the reason', async () => {
    await expectUnreachableServerFails('claude', installed('claude', version))
  }, RUN_TIMEOUT_MS)
})

// Each version's runs are their own (model server, HOME, runs folder): the versions run at once.
describe.concurrent.each(TESTED_CLI_VERSIONS.codex.versions)('Codex CLI %s through the browser', (version) => {
  let server: SseModelServer
  beforeAll(async () => { server = await startSseModelServer() })
  afterAll(async () => { await server?.close() })

  it('OPENAI_BASE_URL honoured, reconnect notices are warnings, tools called, scored', async () => {
    const run = await runBenchmark('codex', installed('codex', version), { AWB_MODEL: 'gpt-fake', OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: 'sk-fake', CODEX_API_KEY: '' })
    expect(run.output).toMatch(/Tests\s+1 passed \(1\)/)
    const records = await sampleRecords(run.runDir)
    expectCompleteSample(records)
    const execution = records.result.execution as { warnings: string[], usage: Record<string, unknown> }
    expect(execution.warnings.some(warning => warning.startsWith('Reconnecting...'))).toBe(true)
    expect(execution.usage).toMatchObject({ input_tokens: 500, output_tokens: 50 })
    // Only the extra tools no flag can switch off are left beside the assembly namespace.
    const offered = (server.conversationRequests()[0]?.body.tools as { name: string }[]).map(tool => tool.name).sort()
    expect(offered).toEqual(['list_mcp_resource_templates', 'list_mcp_resources', 'mcp__assembly', 'read_mcp_resource', 'request_user_input'])
  }, RUN_TIMEOUT_MS)

  it('awb doctor names the version as tested, and the real MCP handshake offers its model the four tools', async () => {
    await expectDoctorTested('codex', installed('codex', version), ['mcp__assembly.execute_webmcp_tool', 'mcp__assembly.list_pages', 'mcp__assembly.list_webmcp_tools', 'mcp__assembly.read_manual_page'])
  }, RUN_TIMEOUT_MS)

  it('with an MCP server that cannot connect: never a pass, an infrastructure failure with the reason', async () => {
    await expectUnreachableServerFails('codex', installed('codex', version))
  }, RUN_TIMEOUT_MS)
})
