// Runs every example of the tool reference for real on one awb-mini sample: each tool on a WorldRuntime, the
// "where a part is" walkthrough, and both MCP surfaces through a real SDK client on the real endpoint. Returns the
// answers (abbreviated); writes nothing and renders no Markdown.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { decodeEpisode, type Episode } from '../../src/episode/index.ts'
import { createRuntimeRelay, withSampleEndpoint, type SurfaceKind } from '../../src/mcp/index.ts'
import { openPackage, readEpisode } from '../../src/package/index.ts'
import { CURRENT_TOOL_NAMES, loadMujoco, WorldRuntime, type CurrentToolName, type Mujoco, type SceneRenderer } from '../../src/world/index.ts'
import { abbreviate, abbreviateJsonText } from './abbreviate.ts'
import { PART_A, PART_B, TOOL_NOTES, type ExampleWorld } from './tool-notes.ts'

/** The one sample every example runs on. */
export const EXAMPLE_PACKAGE = 'fixtures/awb-mini'
export const EXAMPLE_BLOCK = 'partnet-none'
export const EXAMPLE_SAMPLE = '20545'

/** Stand-in PNG bytes (the signature only) for captures and reference pages: elided in the reference anyway. */
const STAND_IN_PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** A name no world registers, for the unknown-tool answer. */
const UNKNOWN_TOOL = 'move_part'
/** Lines of list_webmcp_tools' text kept: the heading and the first tools. */
const LISTED_TOOL_LINES = 3
/** Decimals of the deltas and pivots the walkthrough types, as an agent would. */
const TYPED_DECIMALS = 4

export interface ToolExample {
  tool: CurrentToolName
  world: ExampleWorld
  input: Record<string, unknown>
  /** The answer string, abbreviated. */
  answer: string
}

export interface CallExample {
  input: Record<string, unknown>
  answer: string
}

export interface PlacementWalkthrough {
  /** get_object of A and B at the start, abbreviated, only the pose and geometry keys. */
  startA: Record<string, unknown>
  startB: Record<string, unknown>
  /** Where the parts' meshes are (their geom frames, MuJoCo `geom_xpos`), read by the generator: no tool exposes it. */
  centreA: number[]
  centreB: number[]
  /** set_object_pose of B to A's position: B does not move. */
  copyPose: CallExample & { centreBAfter: number[], moved: number }
  /** translate_objects of B by A's centre − B's centre. */
  move: CallExample & { objectAfter: Record<string, unknown>, centreBAfter: number[], gap: number }
  /** rotate_objects of B about its centre, then of A without a pivot. */
  rotateAboutCentre: CallExample & { moved: number }
  rotateDefaultPivot: CallExample & { moved: number }
}

export interface McpExample {
  title: string
  /** `tools/call` params: the MCP tool and its arguments. */
  request: { name: string, arguments: unknown }
  /** The JSON-RPC `result` (a CallToolResult), abbreviated. */
  result: unknown
}

export interface McpExamples {
  /** `tools/list` of the benchmark surface: name, description, inputSchema. */
  benchmarkTools: unknown[]
  benchmark: McpExample[]
  /** A raw `tools/call` with no tool name: the JSON-RPC error object. */
  malformed: { request: unknown, response: unknown }
  directToolNames: string[]
  direct: McpExample[]
}

export interface ReferenceExamples {
  sample: { block: string, id: string, parts: number, enabledTools: string[] }
  /** A call of a name that is no tool, and its answer. */
  unknownTool: { tool: string, answer: string }
  tools: ToolExample[]
  placement: PlacementWalkthrough
  mcp: McpExamples
}

/** Runs everything; deterministic for a given package and MuJoCo build. */
export async function runExamples(): Promise<ReferenceExamples> {
  const pkg = await openPackage(EXAMPLE_PACKAGE)
  const sample = pkg.blocks.find(block => block.name === EXAMPLE_BLOCK)?.samples.find(entry => entry.id === EXAMPLE_SAMPLE)
  if (sample === undefined) throw new Error(`the tool reference runs on ${EXAMPLE_PACKAGE} ${EXAMPLE_BLOCK}/${EXAMPLE_SAMPLE}, which is missing: choose another sample in scripts/tool-reference/run-examples.ts`)
  const episode = await decodeEpisode(await readEpisode(pkg, sample))
  const mujoco = await loadMujoco()
  return {
    sample: { block: EXAMPLE_BLOCK, id: EXAMPLE_SAMPLE, parts: episode.manifest.objects.length, enabledTools: [...episode.manifest.runtime.enabledTools] },
    unknownTool: await runUnknownTool(mujoco, episode),
    tools: await runToolExamples(mujoco, episode),
    placement: await runPlacement(mujoco, episode),
    mcp: await runMcpExamples(mujoco, episode),
  }
}

function standInRenderer(): SceneRenderer {
  return { name: 'stand-in', capture: async () => STAND_IN_PNG, dispose: () => undefined }
}

function openWorld(mujoco: Mujoco, episode: Episode, world: ExampleWorld): WorldRuntime {
  const runtime = WorldRuntime.open({ mujoco, episode, renderer: standInRenderer(), clock: () => new Date(0) })
  if (world === 'physics') runtime.configure({ physics: { enabled: true }, enabledTools: [...CURRENT_TOOL_NAMES] })
  return runtime
}

/** Every tool in catalog order on one benchmark world (so ungroup_objects finds the group), then the physics world. */
async function runToolExamples(mujoco: Mujoco, episode: Episode): Promise<ToolExample[]> {
  const examples: ToolExample[] = []
  const answers = new Map<CurrentToolName, unknown>()
  for (const world of ['benchmark', 'physics'] as const) {
    const runtime = openWorld(mujoco, episode, world)
    try {
      for (const tool of CURRENT_TOOL_NAMES) {
        const note = TOOL_NOTES[tool]
        const worlds: readonly ExampleWorld[] = 'worlds' in note ? note.worlds : ['benchmark']
        if (!worlds.includes(world)) continue
        const input = typeof note.example === 'function' ? note.example(answers) : note.example
        const answer = await runtime.callTool(tool, input)
        if (world === 'benchmark') answers.set(tool, JSON.parse(answer))
        examples.push({ tool, world, input, answer: abbreviateJsonText(answer) })
      }
    } finally {
      runtime.dispose()
    }
  }
  return examples
}

async function runUnknownTool(mujoco: Mujoco, episode: Episode): Promise<{ tool: string, answer: string }> {
  const runtime = openWorld(mujoco, episode, 'benchmark')
  try {
    return { tool: UNKNOWN_TOOL, answer: await runtime.callTool(UNKNOWN_TOOL, {}) }
  } finally {
    runtime.dispose()
  }
}

interface ObjectAnswer { position: number[], quaternion: number[], centerOfMass: number[], geometries: { index: number, size: number[] }[] }

async function getObject(runtime: WorldRuntime, id: string): Promise<ObjectAnswer> {
  return JSON.parse(await runtime.callTool('get_object', { id })) as ObjectAnswer
}

function poseKeys(object: ObjectAnswer): Record<string, unknown> {
  const { position, quaternion, centerOfMass, geometries } = object
  return abbreviate({ position, quaternion, centerOfMass, size: geometries[0]?.size }) as Record<string, unknown>
}

/** World position of a part's mesh frame (`geom_xpos` of its one geom). */
function meshCentre(runtime: WorldRuntime, object: ObjectAnswer): number[] {
  const geom = object.geometries[0]?.index
  if (geom === undefined) throw new Error('a benchmark part has one mesh geometry; this one has none')
  const xpos = runtime.renderView().data.geom_xpos as Float64Array
  return [xpos[3 * geom]!, xpos[3 * geom + 1]!, xpos[3 * geom + 2]!]
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!)
}

function typed(values: readonly number[]): number[] {
  return values.map(value => Number(value.toFixed(TYPED_DECIMALS)))
}

function rounded(values: readonly number[]): number[] {
  return abbreviate(values) as number[]
}

/** The walkthrough of "Where a part is"; throws when the sample contradicts what the reference says. */
async function runPlacement(mujoco: Mujoco, episode: Episode): Promise<PlacementWalkthrough> {
  const runtime = openWorld(mujoco, episode, 'benchmark')
  try {
    const a = await getObject(runtime, PART_A)
    const b = await getObject(runtime, PART_B)
    const centreA = meshCentre(runtime, a)
    const centreB = meshCentre(runtime, b)
    if (JSON.stringify([a.position, a.quaternion, a.centerOfMass]) !== JSON.stringify([b.position, b.quaternion, b.centerOfMass])) {
      throw new Error('the reference says every part starts with the same position, quaternion and centerOfMass; this sample\'s parts differ')
    }
    const call = async (tool: CurrentToolName, input: Record<string, unknown>): Promise<CallExample> => ({ input, answer: abbreviateJsonText(await runtime.callTool(tool, input)) })

    const copyPose = await call('set_object_pose', { id: PART_B, position: a.position })
    const afterCopy = meshCentre(runtime, b)

    const move = await call('translate_objects', { ids: [PART_B], delta: typed(centreA.map((value, k) => value - centreB[k]!)) })
    const bMoved = await getObject(runtime, PART_B)
    const centreBMoved = meshCentre(runtime, bMoved)
    if (JSON.stringify(bMoved.centerOfMass) !== JSON.stringify(b.centerOfMass)) throw new Error('the reference says centerOfMass does not change when a part moves; it did')

    const aboutCentre = await call('rotate_objects', { ids: [PART_B], angles: [0, 0, 90], pivot: typed(centreBMoved) })
    const centreBTurned = meshCentre(runtime, bMoved)
    const defaultPivot = await call('rotate_objects', { ids: [PART_A], angles: [0, 0, 90] })
    const centreATurned = meshCentre(runtime, a)
    return {
      startA: poseKeys(a),
      startB: poseKeys(b),
      centreA: rounded(centreA),
      centreB: rounded(centreB),
      copyPose: { ...copyPose, centreBAfter: rounded(afterCopy), moved: roundedNumber(distance(afterCopy, centreB)) },
      move: { ...move, objectAfter: poseKeys(bMoved), centreBAfter: rounded(centreBMoved), gap: roundedNumber(distance(centreBMoved, centreA)) },
      rotateAboutCentre: { ...aboutCentre, moved: roundedNumber(distance(centreBTurned, centreBMoved)) },
      rotateDefaultPivot: { ...defaultPivot, moved: roundedNumber(distance(centreATurned, centreA)) },
    }
  } finally {
    runtime.dispose()
  }
}

function roundedNumber(value: number): number {
  return abbreviate(value) as number
}

/** A CallToolResult with its texts abbreviated: the `{status, output, errorText}` wrapper keeps its layout. */
function abbreviateResult(result: unknown): unknown {
  const { content, ...rest } = result as { content: { type: string, text?: string }[] }
  return { content: content.map(item => item.type === 'text' && item.text !== undefined ? { ...item, text: abbreviateText(item.text) } : abbreviate(item)), ...rest }
}

function abbreviateText(text: string): string {
  if (text.startsWith('## WebMCP tools\n')) {
    const lines = text.split('\n')
    return [...lines.slice(0, LISTED_TOOL_LINES), `… ${lines.length - LISTED_TOOL_LINES} more lines`].join('\n')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text
  }
  const wrapper = value as { output?: unknown }
  if (value !== null && typeof value === 'object' && typeof wrapper.output === 'string') {
    return JSON.stringify({ ...wrapper, output: abbreviateJsonText(wrapper.output) }, null, 2)
  }
  return JSON.stringify(abbreviate(value))
}

/** Serves one surface over a fresh benchmark world on the real endpoint (Streamable HTTP, 127.0.0.1) for `use`. */
async function onEndpoint<T>(mujoco: Mujoco, episode: Episode, surface: SurfaceKind, use: (client: Client, url: string) => Promise<T>): Promise<T> {
  const runtime = openWorld(mujoco, episode, 'benchmark')
  const relay = createRuntimeRelay({ runtime, referencePages: [{ page: 1, mimeType: 'image/png', bytes: STAND_IN_PNG }] })
  try {
    const { value } = await withSampleEndpoint({ relay, surface }, async url => {
      const client = new Client({ name: 'tool-reference', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      try {
        return { value: await use(client, url) }
      } finally {
        await client.close()
      }
    })
    return value
  } finally {
    runtime.dispose()
  }
}

async function callAll(client: Client, calls: readonly { title: string, name: string, arguments: Record<string, unknown> }[]): Promise<McpExample[]> {
  const examples: McpExample[] = []
  for (const { title, name, arguments: args } of calls) {
    examples.push({ title, request: { name, arguments: args }, result: abbreviateResult(await client.callTool({ name, arguments: args })) })
  }
  return examples
}

async function runMcpExamples(mujoco: Mujoco, episode: Episode): Promise<McpExamples> {
  const execute = (toolName: string, input: unknown): Record<string, unknown> => ({ pageId: 1, toolName, input: JSON.stringify(input) })
  const benchmark = await onEndpoint(mujoco, episode, 'benchmark', async (client, url) => {
    const { tools } = await client.listTools()
    const examples = await callAll(client, [
      { title: 'list_pages: the environment page is page 1', name: 'list_pages', arguments: {} },
      { title: `list_webmcp_tools: one line per page tool, its JSON Schema inline (cut here after ${LISTED_TOOL_LINES - 1} tools)`, name: 'list_webmcp_tools', arguments: { pageId: 1 } },
      { title: 'execute_webmcp_tool: a tool call', name: 'execute_webmcp_tool', arguments: execute('get_object', { id: PART_A }) },
      { title: 'execute_webmcp_tool: a tool that fails still answers status "Completed"; the failure is in `output`', name: 'execute_webmcp_tool', arguments: execute('get_object', { id: 'part-9999' }) },
      { title: 'execute_webmcp_tool: invalid tool arguments are the tool\'s own failure', name: 'execute_webmcp_tool', arguments: execute('translate_objects', { ids: [PART_A], delta: [0.1, 0] }) },
      { title: '`input` given as an object instead of a JSON string: -32602', name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'get_object', input: { id: PART_A } } },
      { title: '`pageId` given as a string: -32602', name: 'execute_webmcp_tool', arguments: { pageId: '1', toolName: 'get_scene' } },
      { title: 'another page id', name: 'execute_webmcp_tool', arguments: { pageId: 2, toolName: 'get_scene' } },
      { title: '`input` that is not a JSON object', name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName: 'get_object', input: JSON.stringify([PART_A]) } },
      { title: 'a tool the page does not register', name: 'execute_webmcp_tool', arguments: execute('apply_force', { id: PART_A, force: [1, 0, 0] }) },
      { title: 'a page tool called as an MCP tool', name: 'get_scene', arguments: {} },
      { title: 'capture_scene: the image becomes MCP image content (stand-in renderer, bytes elided)', name: 'execute_webmcp_tool', arguments: execute('capture_scene', {}) },
      { title: 'read_manual_page (a stand-in page, bytes elided)', name: 'read_manual_page', arguments: { page: 1 } },
    ])
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } }
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(request) })
    return { tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })), examples, malformed: { request, response: await response.json() as unknown } }
  })
  const direct = await onEndpoint(mujoco, episode, 'direct', async client => {
    const { tools } = await client.listTools()
    const examples = await callAll(client, [
      { title: 'a tool call', name: 'get_object', arguments: { id: PART_A } },
      { title: 'a tool that fails: `isError` and the `{error, code}` envelope', name: 'get_object', arguments: { id: 'part-9999' } },
      { title: 'invalid arguments: the tool\'s own failure', name: 'translate_objects', arguments: { ids: [PART_A], delta: [0.1, 0] } },
    ])
    return { names: tools.map(tool => tool.name), examples }
  })
  return {
    benchmarkTools: benchmark.tools,
    benchmark: benchmark.examples,
    malformed: benchmark.malformed,
    directToolNames: direct.names,
    direct: direct.examples,
  }
}
