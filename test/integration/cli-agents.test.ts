// CLI agents end to end: the fake Codex / Claude CLI (test/helpers/fake-agent-cli.mjs) driven by runCliAgent,
// talking to the benchmark surface over the stdio bridge and Streamable HTTP, backed by a real WorldRuntime on a
// package sample; the final episode is scored. Also crash, hang (timeout), quota, invalid output, and a
// ground-truth canary that nothing served may contain. The CLIs run in the agent sandbox (bubblewrap), as in a
// benchmark run: the fake's own variables pass only because the run lists them, and it writes its log into its workspace.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runCliAgent, runCliAgentOnRelay, summarizeFailure, type CliAgentKind, type RunCliAgentOptions } from '../../src/agents/cli/index.ts'
import { composePrompt, type ConversationEntry, type ReferencePage } from '../../src/agents/index.ts'
import { encodeEpisode, decodeEpisode } from '../../src/episode/index.ts'
import { createScorer, scoreFinalEpisode, type SampleScorer } from '../../src/evaluate/index.ts'
import { DEFAULT_SANDBOX, type SandboxSettings } from '../../src/agents/sandbox/index.ts'
import { createMcpSurface, createRuntimeRelay, startMcpHttpServer, type McpHttpServer, type McpSurface } from '../../src/mcp/index.ts'
import { findSample, openPackage, readEpisode, readPage, type BenchmarkPackage, type PackageSample } from '../../src/package/index.ts'
import { loadMujoco, WorldRuntime } from '../../src/world/index.ts'
import { createPackageFixture, type PackageFixture } from '../helpers/package-fixture.ts'

const FAKE_CLI = fileURLToPath(new URL('../helpers/fake-agent-cli.mjs', import.meta.url))
/** A ground-truth value planted in evaluation.json (a GT position component); no served byte may contain it. */
const CANARY = '0.7315926535897'
const BLOCK = 'ikea-manualbook'
/** The fake's settings reach it the way a user's `env` list passes variables into the sandbox. */
const SANDBOX: SandboxSettings = { ...DEFAULT_SANDBOX, passEnv: ['FAKE_AGENT_LOG', 'FAKE_AGENT_MODE', 'FAKE_AGENT_CALLS'] }

let fixture: PackageFixture
let pkg: BenchmarkPackage
let sample: PackageSample
let pages: ReferencePage[]
let scorer: SampleScorer
let scratch: string

beforeAll(async () => {
  fixture = await createPackageFixture({
    blocks: [{ name: BLOCK, source: 'ikea-manual', repoId: 'AssemblyWorld/source-2', configId: 'fixture', referenceMode: 'manualbook', pageCount: 2, samples: [{ id: 'sample-00', partIds: ['a', 'b'] }] }],
    edit: { evaluation: (_block, _id, json) => { json.gt_poses.b = [Number(CANARY), 0, 0, 1, 0, 0, 0] } },
  })
  pkg = await openPackage(fixture.root)
  sample = findSample(pkg, BLOCK, 'sample-00')
  pages = await Promise.all(sample.pages.map(async page => ({ page: page.page, mimeType: 'image/png', bytes: await readPage(pkg, page) })))
  scorer = createScorer({ workers: 1 })
  scratch = await mkdtemp(join(tmpdir(), 'awb-cli-agents-'))
})

afterAll(async () => {
  await scorer?.close()
  await fixture?.cleanup()
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

interface Environment {
  runtime: WorldRuntime
  server: McpHttpServer
  surface: McpSurface
  records: ConversationEntry[]
}
let environment: Environment | undefined
afterEach(async () => {
  await environment?.server.close()
  environment?.runtime.dispose()
  environment = undefined
})

/** The sample's episode in a Node runtime, served over HTTP; every record lands in one list (the conversation). */
async function openEnvironment(): Promise<Environment> {
  const episode = await decodeEpisode(await readEpisode(pkg, sample), { source: sample.episodePath })
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode })
  const records: ConversationEntry[] = []
  const surface = createMcpSurface({ relay: createRuntimeRelay({ runtime, referencePages: pages }), onRecord: entry => { records.push(entry) } })
  environment = { runtime, server: await startMcpHttpServer({ surface }), surface, records }
  return environment
}

async function runFake(kind: CliAgentKind, env: Record<string, string> = {}, options: Partial<RunCliAgentOptions> = {}) {
  const { server, surface, records } = environment ?? await openEnvironment()
  const workspace = await mkdtemp(join(scratch, 'ws-'))
  // The workspace is the one folder the sandboxed CLI may write.
  const log = join(workspace, 'fake-agent-log.json')
  const run = await runCliAgent({
    kind,
    model: 'fake-model-1',
    prompt: composePrompt('Assemble the supplied parts.\n'),
    pages,
    mcp: { url: server.url },
    workspace,
    executable: { command: process.execPath, args: [FAKE_CLI] },
    env: { ...process.env, ...env, FAKE_AGENT_LOG: log, CLAUDECODE: '1', CODEX_THREAD_ID: 'parent', CLAUDE_CODE_ENTRYPOINT: 'cli' },
    sandbox: SANDBOX,
    onRecord: entry => { records.push(entry) },
    mcpActivity: () => ({ listings: surface.listings, calls: surface.calls }),
    ...options,
  })
  const invocation = JSON.parse(await readFile(log, 'utf8')) as { pid: number, argv: string[], stdin: string, env: Record<string, string> }
  return { run, records, invocation, workspace, log }
}

/** Host processes whose environment holds `text` (the fake's pid is its PID namespace's, not the host's). */
function processesWithEnvironment(text: string): number[] {
  return readdirSync('/proc').filter(name => /^\d+$/.test(name)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(text)
    } catch {
      return false // Gone meanwhile, or not ours to read.
    }
  }).map(Number)
}

describe('CLI agents through the benchmark surface', () => {
  it('codex: completes, tools reach the world, reasoning and relay calls are not duplicated, the final episode scores', async () => {
    const { run, records, invocation, workspace } = await runFake('codex')
    expect(run.execution).toMatchObject({ status: 'completed', exit_code: 0, agent_error: null, parse_errors: 0, error: null, infrastructure_error: null, warnings: [], cost_usd: null, model: 'fake-model-1' })
    expect(run.execution.usage).toEqual({ input_tokens: 1200, cached_input_tokens: 200, output_tokens: 340 })
    expect(run.outcome).toMatchObject({ status: 'completed', checked_connections: ['part-0001/part-0002'] })
    expect(run.isQuotaExhausted).toBe(false)
    // First record: the user message, prompt then the pages in order.
    expect(records[0]).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'text' }, { type: 'image' }, { type: 'image' }] })
    const calls = records.filter(record => record.type === 'tool_call').map(record => record.type === 'tool_call' ? record.name : '')
    expect(calls).toEqual(['list_pages', 'list_webmcp_tools', 'execute_webmcp_tool', 'execute_webmcp_tool', 'read_manual_page', 'read_manual_page'])
    expect(records.filter(record => record.type === 'tool_result')).toHaveLength(6)
    expect(JSON.stringify(records)).not.toContain('I should look at the scene first.')
    expect(records.some(record => record.type === 'event' && JSON.stringify(record.event).includes('mcp_tool_call'))).toBe(false)
    // The images went to codex as --image files in the workspace, in page order; the prompt on stdin.
    expect(invocation.argv.filter((_, i) => invocation.argv[i - 1] === '--image')).toEqual([join(workspace, 'reference-0001.png'), join(workspace, 'reference-0002.png')])
    expect(invocation.stdin).toBe(composePrompt('Assemble the supplied parts.\n'))
    expect(invocation.env).toEqual({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1', FAKE_AGENT_LOG: expect.any(String) as unknown })

    const finalBytes = await encodeEpisode(environment!.runtime.exportEpisode(), { source: 'final' })
    const score = await scoreFinalEpisode({ pkg, sample, finalBytes, finalSource: 'final', scorer })
    expect(score.status).toBe('scored')
    expect(score.state_index).toBe(1)
  })

  it('claude: session reduced to id and model, no thinking or signatures, cost as reported', async () => {
    const { run, records, invocation, workspace } = await runFake('claude')
    expect(run.execution).toMatchObject({ status: 'completed', cost_usd: 0.0123, model: 'fake-model', usage: { input_tokens: 1200, output_tokens: 340, service_tier: 'standard' } })
    expect(run.outcome?.status).toBe('completed')
    expect(records.find(record => record.type === 'session')).toEqual({ type: 'session', session_id: 'session-1', model: 'fake-model', mcp_servers: [{ name: 'assembly', status: 'connected' }] })
    // Blocking MCP connection with generous limits: otherwise Claude Code -p starts with the server `pending`.
    expect(invocation.env).toMatchObject({ MCP_CONNECTION_NONBLOCKING: 'false', MCP_CONNECT_TIMEOUT_MS: '60000', MCP_TOOL_TIMEOUT: '300000' })
    const text = JSON.stringify(records)
    for (const hidden of ['sig-secret', 'I should look at the scene first.', 'apiKeySource', '"cwd"']) expect(text).not.toContain(hidden)
    expect(invocation.argv).toContain('--input-format')
    const config = JSON.parse(await readFile(join(workspace, 'mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> }
    expect(Object.keys(config.mcpServers)).toEqual(['assembly'])
    expect(records.filter(record => record.type === 'tool_call')).toHaveLength(6)
  })

  it('a crash is failed with the exit code; the stderr tail is kept apart from the error', async () => {
    const { run } = await runFake('codex', { FAKE_AGENT_MODE: 'crash' })
    expect(run.execution).toMatchObject({ status: 'failed', exit_code: 3, final_answer: null, agent_error: null })
    expect(run.execution.error).toContain('exited with code 3')
    expect(run.execution.error).not.toContain('simulated crash')
    expect(run.execution.stderr).toContain('simulated crash')
    // The one-line summary a test report shows quotes the end of stderr.
    expect(summarizeFailure(run.execution)).toMatch(/exited with code 3 \(stderr: fake-agent-cli: simulated crash/)
    expect(run.outcome).toBeNull()
  })

  it('codex: Reconnecting notices and error items are warnings; the completed turn passes', async () => {
    const { run, records } = await runFake('codex', { FAKE_AGENT_MODE: 'reconnect' })
    expect(run.execution).toMatchObject({ status: 'completed', agent_error: null, error: null })
    expect(run.execution.warnings).toHaveLength(6)
    expect(run.execution.warnings[0]).toMatch(/^Reconnecting\.\.\. 1\/5/)
    expect(records.filter(record => record.type === 'event' && JSON.stringify(record.event).includes('Reconnecting'))).toHaveLength(5)
  })

  it('claude: a server still pending at start is an infrastructure failure with that reason, never a pass', async () => {
    const { run, records } = await runFake('claude', { FAKE_AGENT_MODE: 'mcp-pending' })
    expect(run.execution.status).toBe('failed')
    expect(run.execution.final_answer).toContain('No tools were available')
    expect(run.execution.infrastructure_error).toContain('"pending"')
    expect(run.execution.error).toMatch(/^InfrastructureError: the assembly MCP server was "pending"/)
    expect(records).toContainEqual({ type: 'session', session_id: 'session-1', model: 'fake-model', mcp_servers: [{ name: 'assembly', status: 'pending' }] })
  })

  it('a CLI that never reaches the server and ends with zero tool calls is an infrastructure failure', async () => {
    const { run } = await runFake('codex', { FAKE_AGENT_MODE: 'no-mcp' })
    expect(run.execution).toMatchObject({ status: 'failed', exit_code: 0, agent_error: null })
    expect(run.execution.infrastructure_error).toContain('zero tool calls and never reached the assembly MCP server')
  })

  it('a hang past the limit is a timeout and the whole process group is killed', async () => {
    const { run, log } = await runFake('claude', { FAKE_AGENT_MODE: 'hang' }, { timeoutMs: 1_500 })
    expect(run.execution.status).toBe('timeout')
    expect(run.execution.error).toContain('TimeoutError')
    // Its sandbox's PID namespace died with it: no process anywhere still carries its unique log path.
    expect(processesWithEnvironment(log)).toEqual([])
  })

  it('cancelling is interrupted', async () => {
    // Cancelled once the agent has started (its first event), not after a fixed time: a cold start can take seconds.
    const controller = new AbortController()
    const { records } = environment ?? await openEnvironment()
    const { run } = await runFake('codex', { FAKE_AGENT_MODE: 'hang' }, {
      signal: controller.signal,
      onRecord: (entry) => {
        records.push(entry)
        if (entry.type === 'session') controller.abort()
      },
    })
    expect(run.execution.status).toBe('interrupted')
  })

  it('quota text is recognised and the run is failed', async () => {
    const { run } = await runFake('codex', { FAKE_AGENT_MODE: 'quota' })
    expect(run.execution.status).toBe('failed')
    expect(run.execution.agent_error).toContain('usage limit')
    expect(run.isQuotaExhausted).toBe(true)
  })

  it('an invalid output line fails the run and is kept as a parse_error record', async () => {
    const { run, records } = await runFake('claude', { FAKE_AGENT_MODE: 'bad-line' })
    expect(run.execution).toMatchObject({ status: 'failed', parse_errors: 1 })
    expect(run.outcome?.status).toBe('completed')
    expect(records).toContainEqual({ type: 'parse_error', text: 'this is not JSON' })
  })

  it('ground-truth canary: nothing served to the agent contains a value of evaluation.json', async () => {
    expect(await readFile(fixture.path(sample.evaluationPath), 'utf8')).toContain(CANARY)
    const reads = [['list_objects', {}], ['get_scene', {}], ['get_state', {}], ['get_object', { id: 'part-0001' }], ['get_object', { id: 'part-0002' }], ['capture_scene', {}]]
    const { run, records } = await runFake('codex', { FAKE_AGENT_MODE: 'tool-error', FAKE_AGENT_CALLS: JSON.stringify(reads) })
    expect(run.execution.status).toBe('completed')
    const results = records.filter(record => record.type === 'tool_result')
    expect(results).toHaveLength(2 + reads.length + pages.length + 1)
    expect(JSON.stringify(records)).not.toContain(CANARY)
    expect(JSON.stringify(records)).not.toContain(CANARY.slice(0, 8))
  })

  it('runCliAgentOnRelay: one call runs the sample on its own endpoint and counts the tool calls', async () => {
    const episode = await decodeEpisode(await readEpisode(pkg, sample), { source: sample.episodePath })
    const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode })
    try {
      const records: ConversationEntry[] = []
      const run = await runCliAgentOnRelay({
        kind: 'claude',
        model: 'fake-model-1',
        prompt: composePrompt('Assemble the supplied parts.\n'),
        relay: createRuntimeRelay({ runtime, referencePages: pages }),
        workspace: await mkdtemp(join(scratch, 'ws-')),
        executable: { command: process.execPath, args: [FAKE_CLI] },
        sandbox: SANDBOX,
        onRecord: entry => { records.push(entry) },
      })
      expect(run.execution.status).toBe('completed')
      expect(run.toolCalls).toBe(records.filter(record => record.type === 'tool_call').length)
      expect(run.toolCalls).toBe(6)
      expect(runtime.exportEpisode().calls.map(call => call.name)).toEqual(['get_scene', 'translate_objects'])
    } finally {
      runtime.dispose()
    }
  })
})
