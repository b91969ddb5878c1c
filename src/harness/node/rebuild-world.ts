// Rebuilds the final world of a sample whose page was lost, in Node: its initial episode from the package plus the
// tool calls Node recorded (conversation.jsonl), each replayed through the world runtime and checked against its
// recorded answer. Any gap or difference gives `not_rebuilt` with the reason, never a guessed world. No file I/O.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { ReferencePage } from '../../agents/index.ts'
import { decodeEpisode, encodeEpisode } from '../../episode/index.ts'
import { createMcpSurface, type RelayPage, type SurfaceKind, type ToolRelay } from '../../mcp/index.ts'
import { base64ToBytes } from '../../shared/base64.ts'
import { loadMujoco, WorldRuntime, type Mujoco, type SceneRenderer } from '../../world/index.ts'
import { readRecordedCalls, type RecordedCall } from './recorded-calls.ts'

/**
 * `producer.renderer` of a rebuilt capture call: Node renders nothing, the image is the one the page rendered and
 * the record holds (pixels depend on the page's rasterizer, and no verifier compares them: environment.md §8, §12).
 */
export const REBUILT_CAPTURE_RENDERER = 'recorded page capture'

/**
 * How the sample's agent reached the world, which decides how its records are read:
 * - `page`: module, replay and idle agents; the harness in the page records each call around the registry's
 *   `invokeTool` (`realm-host.ts`), whose answer is the world's JSON string. A name the registry never registered is
 *   refused before the world sees it and leaves no answer.
 * - `api`: API agents record their own calls; the loop answers a name it was not offered, or arguments that are not
 *   JSON, itself (`api-agent.ts` `answerCall`), without the world.
 * - `mcp`: CLI agents and external programs; records are MCP calls on a surface over the page's tools
 *   (`ToolCallGate`), replayed through the same surface over the rebuilt world.
 */
export type RebuildDialect =
  | { kind: 'page' }
  | { kind: 'api' }
  | { kind: 'mcp'; surface: SurfaceKind; page: RelayPage; referencePages: readonly ReferencePage[] }

export interface RebuildWorldInput {
  /** The sample's initial episode as the package holds it (already checked against its SHA-256). */
  initialEpisode: Uint8Array
  /** Label of the initial episode in errors. */
  initialSource: string
  /** The text of the sample's conversation.jsonl as Node wrote it. */
  conversation: string
  dialect: RebuildDialect
  /** Default: the shared `loadMujoco()`. */
  mujoco?: Mujoco
}

export type RebuildOutcome =
  | {
    status: 'rebuilt'
    /** The final episode as the page would have exported it (`encodeEpisode` of the runtime's export). */
    episode: Uint8Array
    /** `tool_call` records read. */
    toolCalls: number
    /** Calls that reached the world (replayed and matched). */
    replayed: number
    /** Rows of the rebuilt episode's calls.jsonl. */
    calls: number
  }
  | { status: 'not_rebuilt'; reason: string; toolCalls: number }

/** Longest recorded or replayed answer quoted in a reason, in characters. */
const QUOTED_ANSWER_CHARS = 240

/**
 * Replays `input.conversation` on `input.initialEpisode` and exports the result. Every call that reaches the world
 * must give exactly the answer recorded for it (captures: the image is taken from the record, everything else of the
 * answer is compared); a call the world never saw is skipped by the dialect's rule. Never throws for a bad record.
 */
export async function rebuildWorld(input: RebuildWorldInput): Promise<RebuildOutcome> {
  let toolCalls = 0
  const notRebuilt = (reason: string): RebuildOutcome => ({ status: 'not_rebuilt', reason, toolCalls })
  let runtime: WorldRuntime
  const captures = new RecordedCaptures()
  const clock = new RecordedClock()
  try {
    const episode = await decodeEpisode(input.initialEpisode, { source: input.initialSource })
    runtime = WorldRuntime.open({ mujoco: input.mujoco ?? await loadMujoco(), episode, renderer: captures, clock: () => clock.now(), source: input.initialSource })
  } catch (error) {
    return notRebuilt(`the initial episode could not be opened: ${messageOf(error)}`)
  }
  try {
    const registered = new Set<string>(runtime.enabledToolDefinitions().map(tool => tool.name))
    const { dialect } = input
    const read = readRecordedCalls(input.conversation, { mayGoUnanswered: call => dialect.kind === 'page' && !registered.has(call.name) })
    if (!read.ok) {
      toolCalls = read.toolCalls
      return notRebuilt(read.reason)
    }
    toolCalls = read.calls.length
    if (toolCalls === 0) return notRebuilt('no tool call was recorded: the agent never acted on its world')
    const replayer = dialect.kind === 'mcp' ? await mcpReplayer(runtime, dialect) : worldReplayer(runtime, dialect.kind)
    try {
      for (const call of read.calls) {
        if (replayer.isUnseen(call)) continue
        const answer = call.answer
        if (answer === undefined) return notRebuilt(`conversation.jsonl line ${call.line}: call ${JSON.stringify(call.id)} (${call.name}) has no recorded result`)
        clock.set(call.calledAt, answer.answeredAt)
        captures.load(recordedImages(answer.result))
        let replayed: unknown
        try {
          replayed = await replayer.replay(call)
        } catch (error) {
          return notRebuilt(`conversation.jsonl line ${call.line}: call ${JSON.stringify(call.id)} (${call.name}) could not be replayed: ${messageOf(error)}`)
        }
        const recordedText = replayer.answerText(answer.result)
        const replayedText = replayer.answerText(replayed)
        if (recordedText === undefined || recordedText !== replayedText) {
          return notRebuilt(`conversation.jsonl line ${answer.line}: the recorded result of call ${JSON.stringify(call.id)} (${call.name}) differs from its replay: recorded ${quote(recordedText ?? answer.result)}, replayed ${quote(replayedText ?? replayed)}`)
        }
      }
    } finally {
      await replayer.close()
    }
    const exported = runtime.exportEpisode()
    const episode = await encodeEpisode(exported, { source: 'rebuilt final episode' })
    return { status: 'rebuilt', episode, toolCalls, replayed: replayer.worldCalls(), calls: exported.calls.length }
  } catch (error) {
    return notRebuilt(`the replayed world could not be exported: ${messageOf(error)}`)
  } finally {
    runtime.dispose()
  }
}

/** Replays one dialect's recorded calls and reads their answers in comparable form. */
interface Replayer {
  /** True for a call the world never saw (skipped, as its answer came from elsewhere). */
  isUnseen(call: RecordedCall): boolean
  replay(call: RecordedCall): Promise<unknown>
  /** The answer as compared text; undefined when it is not of the dialect's shape. */
  answerText(answer: unknown): string | undefined
  /** Calls that reached the rebuilt world so far. */
  worldCalls(): number
  close(): Promise<void>
}

/** Page and API agents: each call goes to the runtime as the registry passes it; answers are its JSON strings. */
function worldReplayer(runtime: WorldRuntime, kind: 'page' | 'api'): Replayer {
  const registered = new Set<string>(runtime.enabledToolDefinitions().map(tool => tool.name))
  let worldCalls = 0
  return {
    isUnseen: call => !registered.has(call.name) || (kind === 'api' && isUnparsedArguments(call)),
    replay: async (call) => {
      worldCalls++
      // The registry's `invokeTool(name, input = {})`: a call made without input reaches the world with `{}`.
      return runtime.callTool(call.name, call.arguments ?? {}, { actor: 'agent' })
    },
    answerText: answer => (typeof answer === 'string' ? answer : undefined),
    worldCalls: () => worldCalls,
    close: async () => {},
  }
}

/**
 * Arguments an API model sent that are not JSON: the loop keeps the raw text as `arguments` and answers the call
 * itself (`Invalid <name> arguments: not a JSON object (…)`); parsed arguments, a JSON string included, reach the world.
 */
function isUnparsedArguments(call: RecordedCall): boolean {
  if (typeof call.arguments !== 'string') return false
  try {
    JSON.parse(call.arguments)
    return false
  } catch {
    return true
  }
}

/** CLI agents: each MCP call goes through a fresh surface of the same kind over the rebuilt world. */
async function mcpReplayer(runtime: WorldRuntime, dialect: Extract<RebuildDialect, { kind: 'mcp' }>): Promise<Replayer> {
  let worldCalls = 0
  const relay: ToolRelay = {
    page: dialect.page,
    referencePages: dialect.referencePages,
    // As the page lists its registered tools (`WebMcpToolRegistry.listTools` through `exposeToolRelay`).
    listTools: async () => runtime.enabledToolDefinitions().map(({ name, description, inputSchema, annotations }) => ({
      name, description, inputSchema: structuredClone(inputSchema), annotations: { readOnlyHint: annotations.readOnlyHint },
    })),
    callTool: (name, toolInput, { signal }) => {
      worldCalls++
      return runtime.callTool(name, toolInput, { actor: 'agent', signal })
    },
  }
  let answered: unknown
  const surface = createMcpSurface({ relay, surface: dialect.surface, onRecord: (entry) => { if (entry.type === 'tool_result') answered = entry.result } })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const server = surface.createServer()
  await server.connect(serverSide)
  const client = new Client({ name: 'awb-rebuild', version: '1.0.0' })
  await client.connect(clientSide)
  return {
    isUnseen: () => false,
    replay: async (call) => {
      if (call.arguments === null || typeof call.arguments !== 'object' || Array.isArray(call.arguments)) throw new Error('its recorded arguments are not an object, as MCP calls always are')
      answered = undefined
      await client.callTool({ name: call.name, arguments: call.arguments as Record<string, unknown> })
      return answered
    },
    // The gate records the MCP result object; Node wrote it as JSON, so its JSON text is what was recorded.
    answerText: answer => (answer !== null && typeof answer === 'object' ? JSON.stringify(answer) : undefined),
    worldCalls: () => worldCalls,
    close: async () => {
      await client.close()
      await server.close()
    },
  }
}

/** The PNGs of a recorded answer (`{type: "image", data}` nodes, depth first), a JSON string's included. */
function recordedImages(answer: unknown): Uint8Array[] {
  const images: Uint8Array[] = []
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item)
      return
    }
    if (value === null || typeof value !== 'object') return
    const node = value as Record<string, unknown>
    if (node.type === 'image' && typeof node.data === 'string') {
      try {
        images.push(base64ToBytes(node.data))
      } catch {
        images.push(new Uint8Array(0)) // Not base64: no PNG, so its capture fails and the answers differ.
      }
      return
    }
    for (const item of Object.values(node)) visit(item)
  }
  if (typeof answer === 'string') {
    try {
      visit(JSON.parse(answer))
    } catch {
      // An answer that is not JSON holds no image.
    }
  } else {
    visit(answer)
  }
  return images
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/**
 * The renderer of the rebuilt world: a capture returns the image recorded in the answer of the call being replayed
 * (Node has no WebGL, and the page's pixels are its rasterizer's). A capture whose record holds no PNG fails, so
 * its answer differs from the record and the world is not rebuilt.
 */
class RecordedCaptures implements SceneRenderer {
  readonly name = REBUILT_CAPTURE_RENDERER
  private images: Uint8Array[] = []

  load(images: Uint8Array[]): void {
    this.images = images
  }

  async capture(): Promise<Uint8Array> {
    const png = this.images.shift()
    if (png === undefined) throw new Error('the record holds no image for this capture')
    if (!PNG_SIGNATURE.every((byte, i) => png[i] === byte)) throw new Error('the recorded capture is not a PNG')
    return png
  }

  dispose(): void {
    this.images = []
  }
}

/** The runtime's clock during a replay: the call's row gets the time Node recorded the call, its end the answer's. */
class RecordedClock {
  private times: string[] = []
  private last = new Date(0).toISOString()

  set(calledAt: string, answeredAt: string): void {
    this.times = [calledAt, answeredAt]
  }

  now(): Date {
    this.last = (this.times.length > 1 ? this.times.shift() : this.times[0]) ?? this.last
    return new Date(this.last)
  }
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)
  return text.length <= QUOTED_ANSWER_CHARS ? text : `${text.slice(0, QUOTED_ANSWER_CHARS)}… (${text.length} characters)`
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
