// Builds benchmark-like episodes (setup and active) and raw ZIP archives for tests; it asserts nothing itself.
import { unzipSync } from 'fflate'
import {
  benchmarkPartId,
  benchmarkStateSize,
  MJ_STATE_INTEGRATION,
  serializeEpisodeMembers,
  sha256Hex,
} from '../../src/episode/index.ts'
import type { Call, CallEvent, Camera, Episode, Frame, Manifest, ObjectEntry, Producer, TraceFrame, Vec3 } from '../../src/episode/index.ts'
import { BENCHMARK_TOOLS, benchmarkModelXml, benchmarkRuntime } from '../../fixtures/generator/episode.ts'

/** `awa-<64 hex>` id of every fixture episode. */
export const FIXTURE_EPISODE_ID = `awa-${'0123456789abcdef'.repeat(4)}`
/** The `build` of the fixture producer and runtime. */
export const FIXTURE_BUILD = 'ab'.repeat(32)
/** Half edge of every fixture box part (episode units). */
export const FIXTURE_BOX_HALF = 0.1
/** Spacing of the baked box centres along x. */
const FIXTURE_BOX_SPACING = 0.3
/** Unit direction of the benchmark initial camera: normalize(1.3, −1.8, 1.5) (§2.7). */
const CAMERA_DIRECTION: Vec3 = [1.3, -1.8, 1.5]
const CAMERA_RADII = 3.5
const MIN_CAMERA_RADIUS = 0.01

/** The 12 tools benchmark episodes enable (§2.4), as the generator writes them. */
export { BENCHMARK_TOOLS }

/** Producer of benchmark setup episodes (kept unchanged through runs). */
export const FIXTURE_SETUP_PRODUCER: Producer = {
  backend: 'native', engine: '3.12.0', implementation: 'assembly-world-agent-episode-v1', language: 'python', build: FIXTURE_BUILD,
}

/** Producer recorded on calls executed by a TypeScript runtime. */
export const FIXTURE_CALL_PRODUCER: Producer = {
  backend: 'wasm', engine: '3.12.0', implementation: '3dwebagent-runtime-1', language: 'typescript', build: FIXTURE_BUILD, engineBuild: '70f991e34b22674611d0cba181a9afb7b66914557c0817d5b5b0f7de10e6d548',
}

export interface EpisodeFixtureOptions {
  /** Number of box parts (default 2). */
  parts?: number
  /** Source part ids, sorted into `part-0001`…; default `"0"`, `"1"`, …. */
  sourcePartIds?: string[]
  /** Manifest fields replacing the defaults (hashes are recomputed on encode anyway). */
  manifest?: Partial<Manifest>
  /** Active variant only: add the worked example's `capture_scene` call with one observation (default false). */
  capture?: boolean
  /** Last edit before the episode is returned, for one-line rejection tests. */
  mutate?: (episode: Episode) => void
}

/** A 2-part (by default) benchmark XML setup episode as environment.md §2.17 describes it. */
export function buildSetupEpisode(options: EpisodeFixtureOptions = {}): Episode {
  const parts = options.parts ?? 2
  const sourceIds = [...(options.sourcePartIds ?? Array.from({ length: parts }, (_, i) => String(i)))].sort()
  const objects: ObjectEntry[] = sourceIds.map((id, i) => ({ id: benchmarkPartId(i + 1), name: `Part ${id}`, type: 'rigid', collisionEnabled: false }))
  const world = new Map<string, Uint8Array>()
  const encoder = new TextEncoder()
  world.set('world/model.xml', encoder.encode(benchmarkModelXml(parts)))
  const centres: Vec3[] = []
  for (let i = 0; i < parts; i++) {
    const centre: Vec3 = [i * FIXTURE_BOX_SPACING, 0, 0]
    centres.push(centre)
    world.set(`world/meshes/${benchmarkPartId(i + 1)}.obj`, encoder.encode(boxObj(centre, FIXTURE_BOX_HALF)))
  }
  const manifest: Manifest = {
    format: '3dwebagent-episode',
    version: 1,
    engine: '3.12.0',
    contract: '3dwebagent-runtime-1',
    id: FIXTURE_EPISODE_ID,
    name: 'ikea-manual / Chair/fixture',
    units: 'normalized',
    stateSpec: MJ_STATE_INTEGRATION,
    stateSize: benchmarkStateSize(parts),
    runtime: benchmarkRuntime(),
    objects,
    hashes: {},
    lifecycle: 'setup',
    originTime: 0,
    task: 'Assemble the supplied parts using the accompanying task resources. Physics is disabled.',
    requiredCapabilities: ['state'],
    producer: { ...FIXTURE_SETUP_PRODUCER },
    ...options.manifest,
  }
  const episode: Episode = {
    manifest,
    initial: { index: 0, integration: identityState(parts), camera: benchmarkInitialCamera(centres, FIXTURE_BOX_HALF), groups: [], groupCounter: 0 },
    states: [],
    calls: [],
    events: [],
    trajectory: [],
    revision: 0,
    world,
    observations: new Map(),
  }
  options.mutate?.(episode)
  return episode
}

/**
 * The setup episode after the §2.17 run: `get_scene` → `translate_objects` part-0001 by [0.1, 0, 0] →
 * (`capture_scene` when `capture`) → failing `get_object {id: "missing"}`, pose-only.
 */
export async function buildActiveEpisode(options: EpisodeFixtureOptions = {}): Promise<Episode> {
  const episode = buildSetupEpisode({ ...options, mutate: undefined })
  const { manifest, initial } = episode
  manifest.lifecycle = 'active'
  const moved = new Float64Array(initial.integration)
  moved[1] = 0.1
  const frame = (integration: Float64Array): Omit<Frame, 'index'> => ({ integration: new Float64Array(integration), camera: structuredClone(initial.camera), groups: [], groupCounter: 0 })
  episode.states.push({ index: 1, ...frame(moved) })
  const trace = (index: number, phase: TraceFrame['phase']): TraceFrame => ({ index, ...frame(moved), call_id: 'call-1', phase, step: 0, sim_time: 0 })
  episode.trajectory.push(trace(0, 'input'), trace(1, 'final'))

  const record = (name: Call['name'], args: Record<string, unknown>, fields: Partial<Call>): void => {
    const index = episode.calls.length
    const call: Call = {
      index, id: `call-${index}`, name, arguments: args, timestamp: fixtureTimestamp(2 * index), actor: 'agent',
      producer: { ...FIXTURE_CALL_PRODUCER }, before_index: episode.states.length, state_index: episode.states.length,
      trace_start: episode.trajectory.length, trace_end: episode.trajectory.length, sim_start: 0, sim_end: 0, steps: 0,
      status: 'completed', ...fields,
    }
    if (call.result !== undefined && call.transport === undefined) call.transport = JSON.stringify(call.result)
    episode.calls.push(call)
  }
  record('get_scene', {}, {
    before_index: 0, state_index: 0, trace_start: 0, trace_end: 0,
    result: { name: manifest.name, units: manifest.units, up: 'Z', quaternion: 'wxyz', runtime: structuredClone(manifest.runtime), objects: structuredClone(manifest.objects) },
  })
  record('translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] }, {
    before_index: 0, state_index: 1, trace_start: 0, trace_end: 2,
    result: { status: 'completed', physics: 'disabled', index: 1 },
  })
  if (options.capture === true) {
    const png = tinyPng(1)
    const observation = `${await sha256Hex(png)}.png`
    episode.observations.set(observation, png)
    const result = {
      content: [{ type: 'image', mimeType: 'image/png', observation }],
      camera: structuredClone(initial.camera),
      render: { width: 1024, height: 768, pixelRatio: 1, fovy: 38, near: 0.01, far: 1000 },
    }
    const wire = { ...result, content: [{ type: 'image', mimeType: 'image/png', data: base64(png) }] }
    record('capture_scene', {}, { result, transport: JSON.stringify(wire), producer: { ...FIXTURE_CALL_PRODUCER, renderer: 'three-r183/webgl2' } })
  }
  record('get_object', { id: 'missing' }, {
    status: 'error', error: 'Unknown object: missing', error_code: 'invalid_argument',
    transport: JSON.stringify({ error: 'Unknown object: missing', code: 'invalid_argument' }),
  })
  const events: CallEvent[] = []
  for (const call of episode.calls) {
    for (const [offset, kind] of [[0, 'request'], [1, 'complete']] as const) {
      events.push({ index: events.length, call_id: call.id, kind, timestamp: fixtureTimestamp(2 * call.index + offset), sim_time: 0 })
    }
  }
  episode.events = events
  options.mutate?.(episode)
  return episode
}

/** The benchmark world XML, exactly as the synthetic package generator writes it (§2.12). */
export { benchmarkModelXml }

/** An axis-aligned box as Wavefront OBJ: 8 `v` lines (17 significant digits) and 12 triangles. */
export function boxObj(centre: Vec3, half: number): string {
  const lines: string[] = []
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
    lines.push(`v ${[centre[0] + sx * half, centre[1] + sy * half, centre[2] + sz * half].map(v => v.toPrecision(17)).join(' ')}`)
  }
  const faces = [[1, 2, 4], [1, 4, 3], [5, 7, 8], [5, 8, 6], [1, 5, 6], [1, 6, 2], [3, 4, 8], [3, 8, 7], [1, 3, 7], [1, 7, 5], [2, 6, 8], [2, 8, 4]]
  for (const [a, b, c] of faces) lines.push(`f ${a} ${b} ${c}`)
  return `${lines.join('\n')}\n`
}

/** The §2.7 benchmark camera for boxes of half edge `half` centred at `centres`. */
export function benchmarkInitialCamera(centres: readonly Vec3[], half: number): Camera {
  const lo: Vec3 = [Infinity, Infinity, Infinity]
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity]
  for (const c of centres) for (let k = 0; k < 3; k++) {
    lo[k] = Math.min(lo[k] ?? Infinity, (c[k] ?? 0) - half)
    hi[k] = Math.max(hi[k] ?? -Infinity, (c[k] ?? 0) + half)
  }
  const target: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2]
  const radius = Math.max(Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2, MIN_CAMERA_RADIUS)
  const norm = Math.hypot(...CAMERA_DIRECTION)
  const offset = (k: 0 | 1 | 2) => target[k] + (CAMERA_DIRECTION[k] / norm) * CAMERA_RADII * radius
  const position: Vec3 = [offset(0), offset(1), offset(2)]
  return { position, target }
}

/** Integration row of N parts at the identity pose: qpos = [0,0,0, 1,0,0,0] per part, everything else 0. */
export function identityState(parts: number): Float64Array {
  const state = new Float64Array(benchmarkStateSize(parts))
  for (let i = 0; i < parts; i++) state[4 + 7 * i] = 1
  return state
}

/** `2025-01-01T00:00:<seconds>.000Z`-style timestamps, one second apart. */
export function fixtureTimestamp(seconds: number): string {
  return new Date(Date.UTC(2025, 0, 1, 0, 0, seconds)).toISOString()
}

/** The members of `episode` (hashes recomputed, no validation) zipped as stored entries: breaks nothing by itself. */
export async function archiveOf(episode: Episode): Promise<Uint8Array> {
  return zipStored(await serializeEpisodeMembers(episode))
}

/** The members of an archive, by name, in directory order (fflate; duplicates collapse). */
export async function unzipMembers(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  return new Map(Object.entries(unzipSync(bytes)))
}

/** Recomputes manifest.json `hashes` for the current members (so a test breaks exactly one rule). */
export async function rehash(members: Map<string, Uint8Array>): Promise<Map<string, Uint8Array>> {
  const hashes: Record<string, string> = {}
  for (const name of [...members.keys()].sort()) if (name !== 'manifest.json') hashes[name] = await sha256Hex(members.get(name) ?? new Uint8Array(0))
  patchManifest(members, manifest => { manifest.hashes = hashes })
  return members
}

/** Edits manifest.json as plain JSON (manifest.json is not hashed, so no rehash is needed). */
export function patchManifest(members: Map<string, Uint8Array>, edit: (manifest: Record<string, unknown>) => void): Map<string, Uint8Array> {
  const text = new TextDecoder().decode(members.get('manifest.json'))
  const manifest: Record<string, unknown> = JSON.parse(text)
  edit(manifest)
  members.set('manifest.json', new TextEncoder().encode(JSON.stringify(manifest)))
  return members
}

/**
 * A stored (uncompressed) ZIP of `entries` in the given order, names written verbatim: duplicates,
 * absolute and `..` names are kept (fflate's `zipSync` takes names as object keys, so it cannot write duplicates).
 */
export function zipStored(entries: Iterable<[string, Uint8Array]>): Uint8Array {
  const encoder = new TextEncoder()
  const locals: Uint8Array[] = []
  const centrals: Uint8Array[] = []
  let offset = 0
  let count = 0
  for (const [name, data] of entries) {
    const nameBytes = encoder.encode(name)
    const crc = crc32(data)
    const local = new Uint8Array(30 + nameBytes.length + data.length)
    const lv = new DataView(local.buffer)
    lv.setUint32(0, 0x04034b50, true)
    lv.setUint16(4, 20, true)
    lv.setUint16(6, 0x0800, true)
    lv.setUint16(8, 0, true)
    lv.setUint16(10, 0, true)
    lv.setUint16(12, 0x21, true)
    lv.setUint32(14, crc, true)
    lv.setUint32(18, data.length, true)
    lv.setUint32(22, data.length, true)
    lv.setUint16(26, nameBytes.length, true)
    local.set(nameBytes, 30)
    local.set(data, 30 + nameBytes.length)
    const central = new Uint8Array(46 + nameBytes.length)
    const cv = new DataView(central.buffer)
    cv.setUint32(0, 0x02014b50, true)
    cv.setUint16(4, 0x0314, true)
    cv.setUint16(6, 20, true)
    cv.setUint16(8, 0x0800, true)
    cv.setUint16(14, 0x21, true)
    cv.setUint32(16, crc, true)
    cv.setUint32(20, data.length, true)
    cv.setUint32(24, data.length, true)
    cv.setUint16(28, nameBytes.length, true)
    cv.setUint32(38, (0o100644 << 16) >>> 0, true)
    cv.setUint32(42, offset, true)
    central.set(nameBytes, 46)
    locals.push(local)
    centrals.push(central)
    offset += local.length
    count++
  }
  const centralSize = centrals.reduce((sum, c) => sum + c.length, 0)
  const eocd = new Uint8Array(22)
  const ev = new DataView(eocd.buffer)
  ev.setUint32(0, 0x06054b50, true)
  ev.setUint16(8, count, true)
  ev.setUint16(10, count, true)
  ev.setUint32(12, centralSize, true)
  ev.setUint32(16, offset, true)
  const out = new Uint8Array(offset + centralSize + eocd.length)
  let at = 0
  for (const part of [...locals, ...centrals, eocd]) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** A minimal PNG (signature, IHDR, IEND) whose width is `seed`, so different seeds hash differently. */
export function tinyPng(seed: number): Uint8Array {
  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, seed)
  view.setUint32(4, 1)
  ihdr.set([8, 6, 0, 0, 0], 8)
  return concat([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IEND', new Uint8Array(0))])
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([new TextEncoder().encode(type), data])
  const out = new Uint8Array(8 + data.length + 4)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(typed, 4)
  view.setUint32(8 + data.length, crc32(typed))
  return out
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

let _crcTable: Uint32Array | undefined

/** CRC-32 (IEEE), as ZIP and PNG use it. */
export function crc32(data: Uint8Array): number {
  if (_crcTable === undefined) {
    _crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      _crcTable[n] = c >>> 0
    }
  }
  let crc = 0xffffffff
  for (const byte of data) crc = (_crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * Appends a completed `set_object_pose` call the way the runtime records it (pose-only): one committed state,
 * `input` and `final` trace frames, a request/complete event pair; a setup episode becomes active.
 * `part` is 1-based (`part-0001`); the quaternion is stored normalised, as the runtime does.
 */
export function recordSetObjectPose(episode: Episode, part: number, position: Vec3, quaternion: readonly number[] = [1, 0, 0, 0]): void {
  episode.manifest.lifecycle = 'active'
  const previous = episode.states.at(-1) ?? episode.initial
  const integration = new Float64Array(previous.integration)
  const norm = Math.hypot(...quaternion)
  integration.set([...position, ...quaternion.map(q => q / norm)], 1 + 7 * (part - 1))
  const index = episode.states.length + 1
  const callIndex = episode.calls.length
  const callId = `call-${callIndex}`
  const base = { integration, camera: structuredClone(previous.camera), groups: structuredClone(previous.groups), groupCounter: previous.groupCounter }
  episode.states.push({ index, ...base, integration: new Float64Array(integration) })
  const traceStart = episode.trajectory.length
  for (const phase of ['input', 'final'] as const) {
    episode.trajectory.push({ index: episode.trajectory.length, ...base, integration: new Float64Array(integration), call_id: callId, phase, step: 0, sim_time: 0 })
  }
  const result = { status: 'completed', physics: 'disabled', index }
  episode.calls.push({
    index: callIndex, id: callId, name: 'set_object_pose', arguments: { id: benchmarkPartId(part), position: [...position], quaternion: [...quaternion] },
    timestamp: fixtureTimestamp(2 * callIndex), actor: 'agent', producer: { ...FIXTURE_CALL_PRODUCER }, before_index: index - 1, state_index: index,
    trace_start: traceStart, trace_end: episode.trajectory.length, sim_start: 0, sim_end: 0, steps: 0, status: 'completed', result, transport: JSON.stringify(result),
  })
  for (const [offset, kind] of [[0, 'request'], [1, 'complete']] as const) {
    episode.events.push({ index: episode.events.length, call_id: callId, kind, timestamp: fixtureTimestamp(2 * callIndex + offset), sim_time: 0 })
  }
}
