// Runs one benchmark sample in the page: opens the environment from the input route, runs the agent under its
// time limit, exports and saves the final episode, asks the Node side to score it. Page code: no `node:`.
// Page agents run in their own realm (a sandboxed frame, src/agents/realm), never in this page.
import { parseAgentOutcome, parseCallsScript, replayCallId, type AgentResult, type ConversationEntry, type ReferencePage } from '../agents/index.ts'
import { ApiAgentError, type ApiAgentSpent, type ModelTransport } from '../agents/api/index.ts'
import { AgentFailure, openAgentRealm, prepareAgentRealm, runAgentInRealm, type AgentRealm, type OpenRealmOptions, type RealmAgentSpec } from '../agents/realm/index.ts'
import { decodeEpisode, encodeEpisode } from '../episode/index.ts'
import { bytesToBase64 } from '../shared/base64.ts'
import type { Mujoco, SceneRenderer } from '../world/index.ts'
import { WorldRuntime } from '../world/index.ts'
import { WebMcpToolRegistry } from '../webmcp/index.ts'
import { exposeToolRelay } from '../mcp/page/index.ts'
import type { AgentSpec, CliAgentResult, FinishSampleRequest, FinishSampleResponse, StartSampleResponse, Timings } from './sample-messages.ts'

/** The Node side of one sample, reached through browser commands; bytes travel as base64. */
export interface SampleHost {
  start(): Promise<StartSampleResponse>
  record(entry: ConversationEntry): Promise<void>
  saveFinal(base64: string): Promise<string>
  finish(report: FinishSampleRequest): Promise<FinishSampleResponse>
  /** Runs a CLI agent on the Node side against this page's tools (exposed to the relay while it runs). */
  runCliAgent?(): Promise<CliAgentResult>
  /** Asked every HEARTBEAT_MS while a page agent runs: a reason when Node wants it stopped (Ctrl-C), else null. */
  heartbeat?(): Promise<{ stop: string | null }>
}

/** How often a running page agent asks Node whether to stop. */
export const HEARTBEAT_MS = 1000

export interface RunSampleDeps {
  mujoco: Mujoco
  createRenderer(): SceneRenderer
  /** Defaults to the page's fetch; the input route is same-origin. */
  fetch?: typeof fetch
  /** Carries API agents' model requests to Node, where the keys are (required for `api` agents). */
  modelTransport?: ModelTransport
  /** How page agents' realms are opened (default: a frame in this page, console output to this page's console). */
  realm?: OpenRealmOptions
}

export interface SampleReport {
  response: FinishSampleResponse
  timings: Timings
  /** Why the test must fail although the sample was recorded (environment, agent or export failure). */
  failure: string | undefined
  /** The final scene as a base64 PNG, for the test report; undefined when it could not be rendered. */
  capture: string | undefined
  agentOutcome: Record<string, unknown> | null
}

/**
 * Runs the sample end to end. Never throws for a sample-level failure: an environment that does not open or an
 * export that fails gives an error row; a crashing or timed-out agent still has its world exported and scored.
 */
export async function runSample(host: SampleHost, deps: RunSampleDeps): Promise<SampleReport> {
  const fetchBytes = async (url: string) => {
    const response = await (deps.fetch ?? fetch)(url)
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`)
    return new Uint8Array(await response.arrayBuffer())
  }
  const clock = performance.now()
  const timings: Timings = { openMs: 0, agentMs: 0, exportMs: 0, saveMs: 0 }
  // A page agent's frame starts while Node prepares the sample (made ahead while the previous one was scored, it is
  // there already). It runs nothing until connected; under a CLI agent it stays blank.
  prepareAgentRealm(deps.realm)
  const start = await host.start()
  const realm = 'realm' in start.agent ? openAgentRealm(start.agent.realm, deps.realm) : undefined
  let toolCalls = 0
  const record = async (entry: ConversationEntry) => {
    if (entry.type === 'tool_call') toolCalls++
    await host.record(entry)
  }

  let phase = performance.now()
  let opened: Opened | undefined
  let openError: unknown
  try {
    opened = await openEnvironment(start, deps, fetchBytes)
  } catch (error) {
    openError = error
  }
  timings.openMs = performance.now() - phase
  if (opened === undefined) {
    realm?.dispose()
    const message = `the environment failed to open: ${describe(openError)}`
    const response = await host.finish({
      execution: { status: 'failed', final_answer: null, error: message, usage: null, cost_usd: null, model: null },
      archive: { status: 'not_saved', sha256: null, calls: null, error: message },
      agentOutcome: null, toolCalls: 0, durationSeconds: (performance.now() - clock) / 1000, timings, capture: null,
    })
    return { response, timings, failure: message, capture: undefined, agentOutcome: null }
  }

  const { runtime, registry, renderer } = opened
  try {
    phase = performance.now()
    let agentRun: AgentRun
    if (start.agent.kind === 'cli') {
      // The CLI runner records the first user message and every tool call itself, on the Node side.
      const run = await runCliAgentFromNode(host, registry)
      agentRun = run.agentRun
      toolCalls = run.toolCalls
    } else {
      await record({ type: 'message', role: 'user', content: start.pages.length === 0 ? start.prompt : [{ type: 'text', text: start.prompt }, ...start.pages.map(p => ({ type: 'image', page: p.page, mimeType: p.mimeType }))] })
      agentRun = await runAgent(start, opened.pages, registry, record, deps, host, realm)
    }
    timings.agentMs = performance.now() - phase

    phase = performance.now()
    let finalBytes: Uint8Array | undefined
    let finalCalls: number | null = null
    let exportError: string | undefined
    try {
      const exported = runtime.exportEpisode()
      finalCalls = exported.calls.length
      finalBytes = await encodeEpisode(exported)
    } catch (error) {
      exportError = `the final episode could not be exported: ${describe(error)}`
    }
    timings.exportMs = performance.now() - phase

    phase = performance.now()
    let sha256: string | null = null
    if (finalBytes !== undefined) {
      try {
        sha256 = await host.saveFinal(bytesToBase64(finalBytes))
      } catch (error) {
        exportError = `the final episode could not be saved: ${describe(error)}`
      }
    }
    timings.saveMs = performance.now() - phase
    const capture = await captureFinalScene(runtime, renderer)
    // While Node scores: the agent's frame goes, and the next sample's frame starts.
    if (realm !== undefined) {
      realm.dispose()
      prepareAgentRealm(deps.realm)
    }
    const agentOutcome = parseAgentOutcome(agentRun.result?.finalAnswer ?? null)
    const response = await host.finish({
      execution: {
        status: agentRun.status,
        final_answer: agentRun.result?.finalAnswer ?? null,
        error: agentRun.error ?? null,
        usage: agentRun.result?.usage ?? null,
        cost_usd: agentRun.result?.costUsd ?? null,
        model: agentRun.result?.model ?? null,
      },
      archive: sha256 === null
        ? { status: exportError === undefined ? 'not_saved' : 'failed', sha256: null, calls: null, error: exportError ?? null }
        : { status: 'saved', sha256, calls: finalCalls, error: null },
      agentOutcome,
      toolCalls,
      durationSeconds: (performance.now() - clock) / 1000,
      timings,
      capture: capture ?? null,
    })
    const how = { timeout: 'timed out', interrupted: 'was interrupted', failed: 'failed' } as const
    const failure = exportError ?? (agentRun.status === 'completed' ? undefined : `the agent ${how[agentRun.status]}: ${agentRun.error}`)
    return { response, timings, failure, capture, agentOutcome }
  } finally {
    realm?.dispose()
    registry.dispose()
    runtime.dispose()
    renderer.dispose()
  }
}

interface Opened {
  runtime: WorldRuntime
  registry: WebMcpToolRegistry
  renderer: SceneRenderer
  pages: ReferencePage[]
}

async function openEnvironment(start: StartSampleResponse, deps: RunSampleDeps, fetchBytes: (url: string) => Promise<Uint8Array>): Promise<Opened> {
  const [episodeBytes, pages] = await Promise.all([
    fetchBytes(start.episodeUrl),
    Promise.all(start.pages.map(async page => ({ page: page.page, mimeType: page.mimeType, bytes: await fetchBytes(page.url) }))),
  ])
  const episode = await decodeEpisode(episodeBytes, { source: 'initial episode' })
  const renderer = deps.createRenderer()
  let runtime: WorldRuntime | undefined
  try {
    runtime = WorldRuntime.open({ mujoco: deps.mujoco, episode, renderer, source: 'initial episode' })
    const registry = WebMcpToolRegistry.open()
    await registry.register(runtime)
    return { runtime, registry, renderer, pages }
  } catch (error) {
    runtime?.dispose()
    renderer.dispose()
    throw error
  }
}

interface AgentRun {
  status: 'completed' | 'failed' | 'timeout' | 'interrupted'
  result: AgentResult | undefined
  error: string | undefined
}

/**
 * Runs the page agent in its realm under the time limit. When the limit passes (or Node asks the run to stop) the run
 * ends at once, as it always has, and the realm's frame is removed: nothing of the agent keeps running. Once the run
 * ends, the realm's port is closed whatever happened.
 */
async function runAgent(start: StartSampleResponse, pages: ReferencePage[], registry: WebMcpToolRegistry, record: (entry: ConversationEntry) => Promise<void>, deps: RunSampleDeps, host: SampleHost, realm: AgentRealm | undefined): Promise<AgentRun> {
  const controller = new AbortController()
  const limit = new Error(`time limit of ${start.timeoutMs / 1000} s reached`)
  const timer = setTimeout(() => controller.abort(limit), start.timeoutMs)
  // The agent may never look at its signal: the race below ends its run either way.
  const stopped = new Promise<'stopped'>(resolve => controller.signal.addEventListener('abort', () => resolve('stopped'), { once: true }))
  const heartbeat = host.heartbeat === undefined ? undefined : setInterval(() => {
    host.heartbeat!().then(({ stop }) => { if (stop !== null) controller.abort(new Error(stop)) }, () => {})
  }, HEARTBEAT_MS)
  const stopStatus = (): 'timeout' | 'interrupted' => (controller.signal.reason === limit ? 'timeout' : 'interrupted')
  let completed = false
  try {
    const agent = realmAgentOf(start.agent, deps)
    if (realm === undefined) throw new Error(`the ${agent.kind} agent has no realm to run in`)
    const result = await Promise.race([
      runAgentInRealm(realm, { prompt: start.prompt, pages, agent }, {
        listTools: () => registry.listTools(),
        invokeTool: (name, input, options) => registry.invokeTool(name, input, options),
        record,
        models: agent.kind === 'api' ? deps.modelTransport : undefined,
        // A user's module cannot leave a tool call out of the record: the harness records each one (and the replay's).
        recordToolCalls: agent.kind === 'module' ? index => `call-${index + 1}` : agent.kind === 'replay' ? replayCallId : undefined,
        signal: controller.signal,
      }),
      stopped,
    ])
    if (result === 'stopped') return { status: stopStatus(), result: undefined, error: messageOf(controller.signal.reason) }
    completed = true
    return { status: 'completed', result, error: undefined }
  } catch (error) {
    // A failed API agent still reports what it spent (usage and cost are never estimated, but never dropped).
    const spent = spentOf(error)
    const result = spent === null ? undefined : { finalAnswer: null, usage: spent.usage, costUsd: spent.costUsd, model: null }
    return { status: controller.signal.aborted ? stopStatus() : 'failed', result, error: describe(error) }
  } finally {
    clearTimeout(timer)
    clearInterval(heartbeat)
    // Stopped, failed or timed out: the frame goes now, and whatever the agent still runs with it. An agent that
    // answered can act on nothing any more (its port is closed): its frame goes once the world is saved.
    if (completed) realm?.close()
    else realm?.dispose()
  }
}

/** What the realm builds for `spec`; a replay script is parsed here, so that a bad line fails before the realm runs. */
function realmAgentOf(spec: AgentSpec, deps: RunSampleDeps): RealmAgentSpec {
  switch (spec.kind) {
    case 'cli':
      throw new Error(`the ${spec.cli} agent runs on the Node side, not in the page`)
    case 'api':
      if (deps.modelTransport === undefined) throw new Error(`the ${spec.spec.provider}:${spec.spec.model} agent needs a model transport to Node; pass modelTransport to runSample`)
      return { kind: 'api', spec: spec.spec }
    case 'module':
      return { kind: 'module', source: spec.source }
    case 'replay':
      return { kind: 'replay', calls: parseCallsScript(spec.script, spec.source) }
    case 'idle':
      return { kind: 'idle' }
    case 'unavailable':
      throw new Error(spec.reason)
    default: {
      const unknown: never = spec
      throw new Error(`unknown agent spec ${JSON.stringify(unknown)}`)
    }
  }
}

function spentOf(error: unknown): ApiAgentSpent | null {
  if (error instanceof AgentFailure || error instanceof ApiAgentError) return error.spent
  return null
}

/** Exposes the page's registered tools to the Node-side MCP relay while the CLI agent runs there. */
async function runCliAgentFromNode(host: SampleHost, registry: WebMcpToolRegistry): Promise<{ agentRun: AgentRun; toolCalls: number }> {
  if (host.runCliAgent === undefined) {
    return { agentRun: { status: 'failed', result: undefined, error: 'this host cannot run CLI agents (no runCliAgent)' }, toolCalls: 0 }
  }
  const unexpose = exposeToolRelay(registry)
  try {
    const run = await host.runCliAgent()
    const result = { finalAnswer: run.finalAnswer, usage: run.usage, costUsd: run.costUsd, model: run.model }
    // Timeouts and interruptions are decided (and the process group killed) on the Node side.
    const status = run.status === 'interrupted' ? 'failed' : run.status
    return { agentRun: { status, result, error: run.error ?? undefined }, toolCalls: run.toolCalls }
  } catch (error) {
    return { agentRun: { status: 'failed', result: undefined, error: describe(error) }, toolCalls: 0 }
  } finally {
    unexpose()
  }
}

/** Renders the final scene for the test report, outside the episode's recording (no call is recorded). */
async function captureFinalScene(runtime: WorldRuntime, renderer: SceneRenderer): Promise<string | undefined> {
  try {
    return bytesToBase64(await renderer.capture(runtime.renderView()))
  } catch {
    return undefined // The report image is a convenience; its absence never changes the score.
  }
}

function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason)
}

function describe(error: unknown): string {
  // What an agent threw that was no Error (a string) reads as its text, as it did when agents ran in the page.
  if (error instanceof AgentFailure && error.thrownValue) return error.message
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
