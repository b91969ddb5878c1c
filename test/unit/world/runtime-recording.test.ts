import { describe, expect, it } from 'vitest'
import { benchmarkStateSize, decodeEpisode, encodeEpisode, readBenchmarkPoses } from '../../../src/episode/index.ts'
import { readFinalScene } from '../../../src/evaluate/final-scene.ts'
import { buildSetupEpisode } from '../../helpers/episode-fixture.ts'
import { callJson, fakeRenderer, openBenchmark, openRuntime, positionOf } from './world-fixture.ts'

describe('recording (§2.14, §10.2)', () => {
  it('records call rows with every field: translate, get_state, failing get_object', async () => {
    const runtime = await openBenchmark()
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    await callJson(runtime, 'get_state', {})
    await callJson(runtime, 'get_object', { id: 'missing' })
    const { calls, events, trajectory, states } = runtime.exportEpisode()
    expect(calls.map(c => [c.name, c.status, c.state_index])).toEqual([['translate_objects', 'completed', 1], ['get_state', 'completed', 1], ['get_object', 'error', 1]])
    expect(calls[2]?.error).toMatch(/Unknown/)
    expect(calls[0]).toMatchObject({
      index: 0, id: 'call-0', actor: 'agent', before_index: 0, state_index: 1, trace_start: 0, trace_end: 2, sim_start: 0, sim_end: 0, steps: 0,
      result: { status: 'completed', physics: 'disabled', index: 1 }, transport: '{"status":"completed","physics":"disabled","index":1}',
    })
    expect(calls[0]?.producer).toMatchObject({ backend: 'wasm', engine: '3.12.0', language: 'typescript' })
    for (const call of calls) expect(new Date(call.timestamp).toISOString()).toBe(call.timestamp)
    expect(calls[2]).toMatchObject({ error_code: 'invalid_argument', transport: '{"error":"Unknown object: missing","code":"invalid_argument"}' })
    expect(calls[2]).not.toHaveProperty('result')
    expect(events.map(e => [e.call_id, e.kind])).toEqual([
      ['call-0', 'request'], ['call-0', 'complete'], ['call-1', 'request'], ['call-1', 'complete'], ['call-2', 'request'], ['call-2', 'complete'],
    ])
    expect(trajectory.map(f => [f.index, f.call_id, f.phase, f.step])).toEqual([[0, 'call-0', 'input', 0], [1, 'call-0', 'final', 0]])
    expect(states.map(s => s.index)).toEqual([1])
  })

  it('stores a deep copy of the arguments', async () => {
    const runtime = await openBenchmark()
    const input = { ids: ['part-0001'], delta: [0.1, 0, 0] }
    await runtime.callTool('translate_objects', input)
    input.ids[0] = 'part-0002'
    input.delta[0] = 9
    expect(runtime.exportEpisode().calls[0]?.arguments).toEqual({ ids: ['part-0001'], delta: [0.1, 0, 0] })
  })

  it('re-opening an export continues numbering: list_objects becomes call index 3', async () => {
    const runtime = await openBenchmark()
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    await callJson(runtime, 'get_state', {})
    await callJson(runtime, 'get_object', { id: 'missing' })
    const reopened = await openRuntime(await decodeEpisode(await encodeEpisode(runtime.exportEpisode())))
    expect(positionOf(reopened.readState(), 0)).toEqual([0.1, 0, 0])
    await callJson(reopened, 'list_objects', {})
    expect(await callJson(reopened, 'translate_objects', { ids: ['part-0002'], delta: [0, 1, 0] })).toMatchObject({ index: 2 })
    const { calls, events, trajectory } = reopened.exportEpisode()
    expect(calls.slice(3).map(c => [c.index, c.id, c.name])).toEqual([[3, 'call-3', 'list_objects'], [4, 'call-4', 'translate_objects']])
    expect(events.at(-1)?.index).toBe(9)
    expect(trajectory.map(f => f.index)).toEqual([0, 1, 2, 3])
  })

  it('setup vs recording: human edits before any agent call change initial and record nothing', async () => {
    const runtime = await openBenchmark()
    const initialBefore = runtime.exportEpisode().initial
    expect(await callJson(runtime, 'edit_poses', { poses: [{ id: 'part-0002', position: [0, 0, 1], quaternion: [1, 0, 0, 0] }] }, { actor: 'human' })).toMatchObject({ status: 'completed' })
    let episode = runtime.exportEpisode()
    expect(episode.calls).toHaveLength(0)
    expect(episode.manifest.lifecycle).toBe('setup')
    expect(positionOf(episode.initial.integration, 1)).toEqual([0, 0, 1])
    expect(episode.initial.integration).not.toEqual(initialBefore.integration)
    // Read-only calls start the episode but add no states.
    for (const name of ['list_objects', 'get_state', 'get_scene', 'capture_scene']) await callJson(runtime, name, {})
    episode = runtime.exportEpisode()
    expect(episode.manifest.lifecycle).toBe('active')
    expect(episode.states).toHaveLength(0)
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    episode = runtime.exportEpisode()
    expect(episode.states.map(s => s.index)).toEqual([1])
    expect(positionOf(episode.initial.integration, 0)).toEqual([0, 0, 0])
    // After the start, human edits are recorded with actor human.
    await callJson(runtime, 'set_camera', { camera: { position: [0, -2, 0], target: [0, 0, 0] } }, { actor: 'human' })
    expect(runtime.exportEpisode().calls.at(-1)).toMatchObject({ name: 'set_camera', actor: 'human', state_index: 2, result: { status: 'completed', index: 2 } })
    expect(() => runtime.configure({ physics: { enabled: true } })).toThrow(/locked/)
    expect(() => runtime.configure({ enabledTools: ['get_state'] })).toThrow(/locked/)
  })

  it('agents cannot call human commands, humans cannot call agent tools', async () => {
    const runtime = await openBenchmark()
    expect(await callJson(runtime, 'edit_poses', { poses: [] })).toMatchObject({ code: 'invalid_argument', error: expect.stringMatching(/Unknown tool: edit_poses/) })
    expect(await callJson(runtime, 'get_state', {}, { actor: 'human' })).toMatchObject({ error: expect.stringMatching(/Unknown command: get_state/) })
    expect(runtime.lifecycle).toBe('setup')
  })

  it('start_episode is idempotent and sets the task only as the first recorded call', async () => {
    const runtime = await openBenchmark()
    expect(await callJson(runtime, 'start_episode', { task: 'Build it.' })).toEqual({ status: 'active' })
    expect(await callJson(runtime, 'start_episode', { task: 'Something else.' })).toEqual({ status: 'active' })
    expect(runtime.exportEpisode().manifest.task).toBe('Build it.')
  })
})

describe('exports (§2.15)', () => {
  it('full export: decodes, keeps id/producer/world bytes, reopens bit-identically; stateSize 31N + 7', async () => {
    for (const parts of [2, 8]) {
      const setup = buildSetupEpisode({ parts })
      const runtime = await openRuntime(setup, { renderer: fakeRenderer() })
      await callJson(runtime, 'rotate_objects', { ids: ['part-0001', 'part-0002'], angles: [10, -20, 30], pivot: [0.1, 0.2, 0.3] })
      await callJson(runtime, 'capture_scene', {})
      const exported = runtime.exportEpisode()
      expect(exported.manifest.stateSize).toBe(benchmarkStateSize(parts))
      const decoded = await decodeEpisode(await encodeEpisode(exported))
      expect(decoded.manifest.id).toBe(setup.manifest.id)
      expect(decoded.manifest.producer).toEqual(setup.manifest.producer)
      expect(decoded.world).toEqual(setup.world)
      expect(decoded.observations.size).toBe(1)
      const live = runtime.readState()
      expect(live).toHaveLength(31 * parts + 7)
      expect(decoded.states.at(-1)?.integration).toEqual(live)
      const reopened = await openRuntime(decoded)
      const restored = reopened.readState()
      for (let i = 0; i < live.length; i++) expect(Object.is(restored[i], live[i]), `value ${i}`).toBe(true)
      reopened.dispose()
      runtime.dispose()
    }
  })

  it('a 2-call export holds exactly the 6 members of §2.1', async () => {
    const runtime = await openBenchmark()
    await callJson(runtime, 'get_scene', {})
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    const bytes = await encodeEpisode(runtime.exportEpisode())
    const { unzipSync } = await import('fflate')
    const names = Object.keys(unzipSync(bytes)).sort()
    expect(names).toEqual(['calls.jsonl', 'events.jsonl', 'frames.bin', 'frames.jsonl', 'manifest.json', 'world/meshes/part-0001.obj', 'world/meshes/part-0002.obj', 'world/model.xml'])
  })

  it('current as initial: new id, setup, chosen frame as initial, no history, no task', async () => {
    const runtime = await openBenchmark()
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    const fresh = runtime.exportCurrentAsInitial({ id: 'fresh-id' })
    expect(fresh.manifest).toMatchObject({ id: 'fresh-id', lifecycle: 'setup', originTime: 0 })
    expect(fresh.manifest).not.toHaveProperty('task')
    expect(fresh.calls).toEqual([])
    expect(fresh.states).toEqual([])
    expect(positionOf(fresh.initial.integration, 0)).toEqual([0.2, 0, 0])
    expect(fresh.initial.index).toBe(0)
    const first = runtime.exportCurrentAsInitial({ stateIndex: 1 })
    expect(positionOf(first.initial.integration, 0)).toEqual([0.1, 0, 0])
    expect(first.manifest.id).toMatch(/^[0-9a-f-]{36}$/)
    await expect(decodeEpisode(await encodeEpisode(fresh))).resolves.toBeDefined()
  })

  it('a benchmark agent script exports a final episode that readFinalScene accepts and scores from', async () => {
    const setup = buildSetupEpisode({ parts: 3 })
    const runtime = await openRuntime(setup)
    await callJson(runtime, 'get_scene', {})
    await callJson(runtime, 'set_object_pose', { id: 'part-0002', position: [0.3, -0.1, 0.2], quaternion: [0, 0, 0, 1] })
    await callJson(runtime, 'group_objects', { ids: ['part-0001', 'part-0003'] })
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0, 0, 0.5], space: 'camera' })
    await callJson(runtime, 'get_object', { id: 'missing' })
    const finalBytes = await encodeEpisode(runtime.exportEpisode())
    const scene = await readFinalScene({ finalBytes, initialBytes: await encodeEpisode(setup), partIds: ['0', '1', '2'], finalSource: 'final.zip', initialSource: 'initial.zip' })
    expect(scene.stateIndex).toBe(3)
    const poses = readBenchmarkPoses(runtime.readState(), 3)
    for (let i = 0; i < 3; i++) {
      expect([...scene.poses[i]!.position]).toEqual([...poses.positions.subarray(3 * i, 3 * i + 3)])
    }
    expect([...scene.poses[1]!.position]).toEqual([0.3, -0.1, 0.2])
    const rotation = [...scene.poses[1]!.rotation]
    ;[-1, 0, 0, 0, -1, 0, 0, 0, 1].forEach((v, i) => expect(rotation[i]).toBeCloseTo(v, 15))
  })
})
