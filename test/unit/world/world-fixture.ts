// Builds runtimes for world tests: benchmark episodes and the §10.1 physics conformance world; asserts nothing.
import { MJ_STATE_INTEGRATION } from '../../../src/episode/index.ts'
import type { Episode, Manifest, ObjectEntry } from '../../../src/episode/index.ts'
import { compileWorld, loadMujoco, WorldRuntime } from '../../../src/world/index.ts'
import type { OpenWorldOptions, SceneRenderer } from '../../../src/world/index.ts'
import { buildSetupEpisode, FIXTURE_CALL_PRODUCER, tinyPng, type EpisodeFixtureOptions } from '../../helpers/episode-fixture.ts'

/** The §10.1 fixture world: ground plane, sphere `a` and box `b` (stateSize 69). */
export const PHYSICS_WORLD_XML = [
  '<mujoco model="conformance">',
  '  <option timestep=".002"/>',
  '  <worldbody>',
  '    <geom name="ground" type="plane" size="5 5 .1"/>',
  '    <body name="a" pos="0 0 .4"><freejoint/><geom type="sphere" size=".1" mass="1"/></body>',
  '    <body name="b" pos="1 0 .4"><freejoint/><geom type="box" size=".1 .1 .1" mass="1"/></body>',
  '  </worldbody>',
  '</mujoco>',
  '',
].join('\n')

/** Default runtime physics of a new world (§2.4). */
export const DEFAULT_PHYSICS: Manifest['runtime']['physics'] = {
  enabled: false, gravity: [0, 0, -9.81], detection: true, response: true, strategy: 'fixed',
  duration: 0.25, maxDuration: 5, quietDuration: 0.1, linearThreshold: 0.01, angularThreshold: 0.01,
}

/** The 13 default tools of a new world plus apply_force (§10.1). */
export const CONFORMANCE_TOOLS: Manifest['runtime']['enabledTools'] = [
  'list_objects', 'get_object', 'get_scene', 'get_state', 'translate_objects', 'rotate_objects', 'set_object_pose',
  'group_objects', 'ungroup_objects', 'capture_scene', 'move_camera', 'apply_force', 'start_episode', 'advance_simulation',
]

/** A deterministic clock: one millisecond per reading from 2025-01-01T00:00:00.000Z. */
export function stepClock(): () => Date {
  let ms = Date.UTC(2025, 0, 1)
  return () => new Date(ms++)
}

/** The §10.1 setup episode; `physics` overrides the conformance settings `{enabled: true, duration: 0.02}`. */
export async function physicsEpisode(physics: Partial<Manifest['runtime']['physics']> = {}, objects?: ObjectEntry[]): Promise<Episode> {
  const mujoco = await loadMujoco()
  const world = new Map([['world/model.xml', new TextEncoder().encode(PHYSICS_WORLD_XML)]])
  const model = compileWorld(mujoco, world)
  const data = new mujoco.MjData(model)
  const stateSize = mujoco.mj_stateSize(model, MJ_STATE_INTEGRATION)
  const buffer = new mujoco.DoubleBuffer(stateSize)
  mujoco.mj_getState(model, data, buffer, MJ_STATE_INTEGRATION)
  const integration = Float64Array.from(buffer.GetView() as Float64Array)
  buffer.delete()
  data.delete()
  model.delete()
  const base = buildSetupEpisode()
  const { task: _task, ...manifest } = base.manifest
  return {
    ...base,
    manifest: {
      ...manifest,
      id: 'conformance-episode',
      name: 'conformance',
      units: 'SI',
      stateSize,
      runtime: { physics: { ...DEFAULT_PHYSICS, enabled: true, duration: 0.02, ...physics }, enabledTools: [...CONFORMANCE_TOOLS] },
      objects: objects ?? [{ id: 'a', name: 'Sphere', type: 'rigid' }, { id: 'b', name: 'Box', type: 'rigid' }],
    },
    initial: { index: 0, integration, camera: { position: [2.5, -3.6, 2.8], target: [0, 0, 0] }, groups: [], groupCounter: 0 },
    world,
  }
}

/** Opens `episode` with a stepping clock and the fixture call producer. */
export async function openRuntime(episode: Episode, options: Partial<OpenWorldOptions> = {}): Promise<WorldRuntime> {
  return WorldRuntime.open({ mujoco: await loadMujoco(), episode, clock: stepClock(), producer: { ...FIXTURE_CALL_PRODUCER }, ...options })
}

/** A runtime on a benchmark setup episode from `buildSetupEpisode`. */
export async function openBenchmark(options: EpisodeFixtureOptions = {}, runtime: Partial<OpenWorldOptions> = {}): Promise<WorldRuntime> {
  return openRuntime(buildSetupEpisode(options), runtime)
}

/** Calls a tool and parses the JSON string it returns. */
export async function callJson(runtime: WorldRuntime, name: string, input: unknown, options: Parameters<WorldRuntime['callTool']>[2] = {}): Promise<Record<string, unknown>> {
  const text = await runtime.callTool(name, input, options)
  const parsed: unknown = JSON.parse(text)
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new TypeError(`not a JSON object: ${text}`)
  return Object.fromEntries(Object.entries(parsed))
}

/** A renderer returning a tiny distinct PNG per capture. */
export function fakeRenderer(): SceneRenderer & { captures: number } {
  return {
    name: 'fake-renderer/test',
    captures: 0,
    async capture() {
      this.captures++
      return tinyPng(1024 + this.captures)
    },
    dispose() {},
  }
}

/** qpos position of body `n` (0-based catalogue order) of a free-body-only world: integration[1 + 7n …]. */
export function positionOf(state: Float64Array, n: number): number[] {
  return [...state.subarray(1 + 7 * n, 4 + 7 * n)]
}

/** qpos quaternion of body `n` (0-based). */
export function quaternionOf(state: Float64Array, n: number): number[] {
  return [...state.subarray(4 + 7 * n, 8 + 7 * n)]
}
