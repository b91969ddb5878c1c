import { describe, expect, it } from 'vitest'
import { RESULT_SCHEMAS } from '../../../src/episode/index.ts'
import type { CallName } from '../../../src/episode/index.ts'
import { CURRENT_TOOL_NAMES, TOOL_DESCRIPTIONS } from '../../../src/world/index.ts'
import { BENCHMARK_TOOLS, buildSetupEpisode } from '../../helpers/episode-fixture.ts'
import { callJson, fakeRenderer, openBenchmark, openRuntime, positionOf, quaternionOf } from './world-fixture.ts'

/** Every completed call's stored result must validate against the results schema. */
function expectStoredResultsValid(calls: { name: CallName, status: string, result?: unknown }[]): void {
  for (const call of calls) if (call.status === 'completed') expect(RESULT_SCHEMAS[call.name].safeParse(call.result).success, call.name).toBe(true)
}

describe('registration surface (§4.1, §4.2, §5.1)', () => {
  it('registers the 12 benchmark tools with verbatim descriptions, strict schemas and read-only hints', async () => {
    const runtime = await openBenchmark()
    const tools = runtime.enabledToolDefinitions()
    expect(tools.map(tool => tool.name)).toEqual(BENCHMARK_TOOLS)
    for (const tool of tools) {
      expect(tool.description).toBe(TOOL_DESCRIPTIONS[tool.name])
      expect(tool.inputSchema.additionalProperties).toBe(false)
      expect(tool.inputSchema.type).toBe('object')
    }
    const readOnly = tools.filter(tool => tool.annotations.readOnlyHint).map(tool => tool.name)
    expect(readOnly).toEqual(['list_objects', 'get_object', 'get_scene', 'get_state', 'capture_scene'])
    const translate = tools.find(tool => tool.name === 'translate_objects')?.inputSchema
    expect(translate).toMatchObject({ required: ['ids', 'delta'], properties: { ids: { minItems: 1, uniqueItems: true, items: { minLength: 1 } }, delta: { minItems: 3, maxItems: 3 } } })
    const setPose = tools.find(tool => tool.name === 'set_object_pose')?.inputSchema
    expect(setPose?.anyOf).toEqual([{ required: ['position'] }, { required: ['quaternion'] }])
    runtime.dispose()
  })

  it('never registers the retired end_episode: default tools + end_episode → 13 tools', async () => {
    const runtime = await openRuntime(buildSetupEpisode({
      manifest: { runtime: { ...buildSetupEpisode().manifest.runtime, enabledTools: [...CURRENT_TOOL_NAMES.filter(n => n !== 'apply_force'), 'end_episode'] } },
    }))
    const names = runtime.enabledToolDefinitions().map(tool => tool.name)
    expect(names).toHaveLength(13)
    expect(names).not.toContain('end_episode')
    expect(await callJson(runtime, 'end_episode', {})).toMatchObject({ error: expect.stringMatching(/Invalid/), code: 'invalid_argument' })
  })

  it('answers a stale registration generation with "expired" and records nothing', async () => {
    const runtime = await openBenchmark()
    const generation = runtime.generation
    runtime.configure({ enabledTools: ['get_state', 'list_objects'] })
    expect(await callJson(runtime, 'get_state', {}, { generation })).toEqual({ error: 'This tool registration has expired.', code: 'invalid_argument' })
    expect(runtime.exportEpisode().calls).toHaveLength(0)
    expect(runtime.lifecycle).toBe('setup')
    expect(await callJson(runtime, 'get_state', {}, { generation: runtime.generation })).toHaveProperty('index', 0)
  })

  it('answers unknown tool names without recording them', async () => {
    const runtime = await openBenchmark()
    expect(await callJson(runtime, 'explode', {})).toMatchObject({ code: 'invalid_argument', error: expect.stringMatching(/Unknown tool: explode/) })
    expect(runtime.exportEpisode().calls).toHaveLength(0)
  })
})

describe('read-only tools (§4.7)', () => {
  it('list_objects, get_scene, get_object and get_state return schema-valid results without states', async () => {
    const runtime = await openBenchmark({ parts: 3 })
    expect(await callJson(runtime, 'list_objects', {})).toEqual({ objects: buildSetupEpisode({ parts: 3 }).manifest.objects, groups: [] })
    const scene = await callJson(runtime, 'get_scene', {})
    expect(scene).toMatchObject({ name: 'ikea-manual / Chair/fixture', units: 'normalized', up: 'Z', quaternion: 'wxyz' })
    expect(scene).not.toHaveProperty('task')
    const part = await callJson(runtime, 'get_object', { id: 'part-0002' })
    expect(part).toMatchObject({
      id: 'part-0002', name: 'Part 1', type: 'rigid', collisionEnabled: false, position: [0, 0, 0], quaternion: [1, 0, 0, 0],
      velocity: [0, 0, 0, 0, 0, 0], mass: 1, movable: true, inertia: [0.1, 0.1, 0.1], centerOfMass: [0, 0, 0], inertiaQuaternion: [1, 0, 0, 0],
    })
    expect(part.geometries).toEqual([{ index: 1, type: 7, size: expect.any(Array), friction: [1, 0.005, 0.0001], condim: 3, collidable: false }])
    // Mesh size = half extents of the box mesh (half edge 0.1, float32 vertices).
    for (const half of (part.geometries as { size: number[] }[])[0]!.size) expect(half).toBeCloseTo(0.1, 6)
    const state = await callJson(runtime, 'get_state', {})
    expect(state).toMatchObject({ index: 0, units: 'normalized', groups: [], contacts: [] })
    expect(state.objects).toHaveLength(3)
    const episode = runtime.exportEpisode()
    expect(episode.states).toHaveLength(0)
    expect(episode.trajectory).toHaveLength(0)
    expectStoredResultsValid(episode.calls)
  })

  it('get_object rejects an unknown id and a group id', async () => {
    const runtime = await openBenchmark()
    expect(await callJson(runtime, 'get_object', { id: 'missing' })).toEqual({ error: 'Unknown object: missing', code: 'invalid_argument' })
    const group = await callJson(runtime, 'group_objects', { ids: ['part-0001', 'part-0002'] })
    const groupId = (group.result as { id: string }).id
    expect(await callJson(runtime, 'get_object', { id: groupId })).toMatchObject({ code: 'invalid_argument', error: `Unknown object: ${groupId}` })
  })

  it('capture_scene without a renderer answers unsupported_capability and adds nothing', async () => {
    const runtime = await openBenchmark()
    expect(await callJson(runtime, 'capture_scene', {})).toEqual({ error: 'Unsupported capability: capture_scene', code: 'unsupported_capability' })
    const episode = runtime.exportEpisode()
    expect(episode.observations.size).toBe(0)
    expect(episode.states).toHaveLength(0)
  })

  it('capture_scene through a renderer: base64 PNG to the agent, observation by SHA-256 in the record', async () => {
    const renderer = fakeRenderer()
    const runtime = await openBenchmark({}, { renderer })
    const text = await runtime.callTool('capture_scene', {})
    const wire = JSON.parse(text)
    expect(wire.render).toEqual({ width: 1024, height: 768, pixelRatio: 1, fovy: 38, near: 0.01, far: 1000 })
    expect(wire.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png', data: expect.any(String) })
    const episode = runtime.exportEpisode()
    const [call] = episode.calls
    const stored = call?.result as { content: { observation: string }[] }
    const png = episode.observations.get(stored.content[0]!.observation)
    expect(png).toBeDefined()
    expect(Buffer.from(png!).toString('base64')).toBe(wire.content[0].data)
    expect(call?.transport).toBe(text)
    expect(call?.producer.renderer).toBe('fake-renderer/test')
    expect(episode.states).toHaveLength(0)
    expectStoredResultsValid(episode.calls)
  })
})

describe('pose tools (§4.7)', () => {
  it('translate_objects moves world-space, expands groups, zeroes nothing else', async () => {
    const runtime = await openBenchmark({ parts: 3 })
    expect(await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0.1, -0.2, 0.3] })).toEqual({ status: 'completed', physics: 'disabled', index: 1 })
    const state = runtime.readState()
    expect(positionOf(state, 0)).toEqual([0.1, -0.2, 0.3])
    expect(positionOf(state, 1)).toEqual([0, 0, 0])
    expect(quaternionOf(state, 0)).toEqual([1, 0, 0, 0])
  })

  it.each([
    ['translate_objects by 1e308', 'translate_objects', { ids: ['part-0001'], delta: [1e308, 0, 0] }],
    ['translate_objects twice past the bound', 'translate_objects', { ids: ['part-0001'], delta: [0, 6e8, 0] }],
    ['set_object_pose at 1e200', 'set_object_pose', { id: 'part-0002', position: [0, 0, -1e200] }],
    ['rotate_objects about a pivot at 1e300', 'rotate_objects', { ids: ['part-0001'], angles: [0, 0, 90], pivot: [1e300, 0, 0] }],
  ])('%s is a tool error that leaves the world as it was (positions whose squares overflow cannot be scored)', async (_label, name, input) => {
    const runtime = await openBenchmark({ parts: 3 })
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0, 6e8, 0] })
    const before = Array.from(runtime.readState())
    const answer = await callJson(runtime, name, input)
    expect(answer).toEqual({ error: expect.stringMatching(/^Position out of range: part-000[12] would be more than 1000000000 from the origin/), code: 'invalid_argument' })
    expect(Array.from(runtime.readState())).toEqual(before)
    expect(runtime.exportEpisode().states).toHaveLength(1)
  })

  it('translate_objects in camera space (§10.2): camera (0, −3, 0) → 0, delta [0, 0, 0.5] moves y by 0.5 only', async () => {
    const runtime = await openRuntime(buildSetupEpisode({ mutate: e => { e.initial.camera = { position: [0, -3, 0], target: [0, 0, 0] } } }))
    await callJson(runtime, 'translate_objects', { ids: ['part-0002'], delta: [0, 0, 0.5], space: 'camera' })
    const state = runtime.readState()
    expect(positionOf(state, 1)).toEqual([0, 0.5, 0])
    expect(positionOf(state, 0)).toEqual([0, 0, 0])
  })

  it('rotate_objects: default pivot = mean origin; a group rotates rigidly (distances within 1e-10)', async () => {
    const runtime = await openBenchmark()
    await callJson(runtime, 'set_object_pose', { id: 'part-0002', position: [1, 0.5, -0.25] })
    const group = await callJson(runtime, 'group_objects', { ids: ['part-0001', 'part-0002'], name: 'Pair' })
    const before = runtime.readState()
    const distance = (s: Float64Array) => Math.hypot(...positionOf(s, 0).map((v, i) => v - (positionOf(s, 1)[i] ?? 0)))
    await callJson(runtime, 'rotate_objects', { ids: [(group.result as { id: string }).id], angles: [0, 0, 90] })
    const after = runtime.readState()
    expect(Math.abs(distance(after) - distance(before))).toBeLessThanOrEqual(1e-10)
    // Pivot (0.5, 0.25, −0.125): part-0001 at (0, 0) → (0.75, −0.25).
    const p1 = positionOf(after, 0)
    expect(p1[0]).toBeCloseTo(0.75, 14)
    expect(p1[1]).toBeCloseTo(-0.25, 14)
    expect(quaternionOf(after, 0)[0]).toBeCloseTo(Math.SQRT1_2, 15)
    expect(quaternionOf(after, 0)[3]).toBeCloseTo(Math.SQRT1_2, 15)
  })

  it('rotate_objects about an explicit pivot pre-multiplies the body quaternion', async () => {
    const runtime = await openBenchmark()
    await callJson(runtime, 'set_object_pose', { id: 'part-0001', position: [1, 0, 0], quaternion: [0, 1, 0, 0] })
    await callJson(runtime, 'rotate_objects', { ids: ['part-0001'], angles: [0, 0, 90], pivot: [0, 0, 0] })
    const state = runtime.readState()
    const p = positionOf(state, 0)
    expect(p[0]).toBeCloseTo(0, 15)
    expect(p[1]).toBeCloseTo(1, 15)
    // Rz(90) ⊗ X(180) = [0, s, s, 0] with s = √½.
    const q = quaternionOf(state, 0)
    ;[0, Math.SQRT1_2, Math.SQRT1_2, 0].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 15))
  })

  it('set_object_pose normalizes the quaternion and sets every member of a group id to the same pose', async () => {
    const runtime = await openBenchmark({ parts: 3 })
    await callJson(runtime, 'set_object_pose', { id: 'part-0003', quaternion: [2, 0, 0, 0] })
    expect(quaternionOf(runtime.readState(), 2)).toEqual([1, 0, 0, 0])
    const group = await callJson(runtime, 'group_objects', { ids: ['part-0001', 'part-0002'] })
    await callJson(runtime, 'set_object_pose', { id: (group.result as { id: string }).id, position: [0.5, 0.5, 0.5] })
    const state = runtime.readState()
    expect(positionOf(state, 0)).toEqual([0.5, 0.5, 0.5])
    expect(positionOf(state, 1)).toEqual([0.5, 0.5, 0.5])
    expect(positionOf(state, 2)).toEqual([0, 0, 0])
  })

  it('a zero quaternion fails inside the commit: rollback frame, no state, state bit-identical', async () => {
    const runtime = await openBenchmark()
    await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    const before = runtime.readState()
    expect(await callJson(runtime, 'set_object_pose', { id: 'part-0001', quaternion: [0, 0, 0, 0] })).toEqual({ error: 'Quaternion cannot be zero.', code: 'invalid_argument' })
    expect(runtime.readState()).toEqual(before)
    const episode = runtime.exportEpisode()
    expect(episode.states).toHaveLength(1)
    expect(episode.trajectory.map(frame => frame.phase)).toEqual(['input', 'final', 'rollback'])
    expect(episode.trajectory[2]?.integration).toEqual(before)
    expect(episode.calls[1]).toMatchObject({ status: 'error', state_index: 1, trace_start: 2, trace_end: 3 })
  })

  it('rejects unknown ids before the commit (no trace) and schema / finiteness errors as invalid_argument', async () => {
    const runtime = await openBenchmark()
    expect(await callJson(runtime, 'translate_objects', { ids: ['nope'], delta: [1, 0, 0] })).toEqual({ error: 'Object requires an independent free joint: nope', code: 'invalid_argument' })
    expect(await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [1, 0] })).toMatchObject({ code: 'invalid_argument', error: expect.stringMatching(/^Invalid translate_objects arguments: /) })
    expect(await callJson(runtime, 'translate_objects', { ids: ['part-0001', 'part-0001'], delta: [1, 0, 0] })).toMatchObject({ code: 'invalid_argument', error: expect.stringMatching(/duplicate/) })
    expect(await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [1, 0, 0], extra: 1 })).toMatchObject({ error: expect.stringMatching(/unknown key "extra"/) })
    expect(await callJson(runtime, 'rotate_objects', { ids: ['part-0001'], angles: [Infinity, 0, 0] })).toMatchObject({ code: 'invalid_argument' })
    expect(await callJson(runtime, 'set_object_pose', { id: 'part-0001' })).toMatchObject({ code: 'invalid_argument', error: expect.stringMatching(/^Invalid set_object_pose arguments/) })
    expect(await callJson(runtime, 'move_camera', { pitch: 90 })).toMatchObject({ code: 'invalid_argument' })
    const episode = runtime.exportEpisode()
    expect(episode.states).toHaveLength(0)
    expect(episode.trajectory).toHaveLength(0)
    expect(episode.calls).toHaveLength(7)
    expect(episode.events).toHaveLength(14)
  })

  it('a disabled tool (§10.2): zero-quaternion set_object_pose still starts the episode; translate → disabled', async () => {
    const runtime = await openRuntime(buildSetupEpisode({ manifest: { runtime: { ...buildSetupEpisode().manifest.runtime, enabledTools: ['set_object_pose', 'get_state'] } } }))
    const initial = runtime.readState()
    expect(await callJson(runtime, 'set_object_pose', { id: 'part-0001', quaternion: [0, 0, 0, 0] })).toMatchObject({ code: 'invalid_argument' })
    expect(runtime.lifecycle).toBe('active')
    expect(runtime.readState()).toEqual(initial)
    expect(await callJson(runtime, 'translate_objects', { ids: ['part-0001'], delta: [1, 0, 0] })).toEqual({ error: 'Tool is disabled: translate_objects', code: 'disabled' })
  })
})

describe('groups and camera (§4.7, §4.8)', () => {
  it('group_objects names groups group-<id>-<n>, dissolves overlapping groups; ungroup removes without moving', async () => {
    const runtime = await openBenchmark({ parts: 3 })
    const first = await callJson(runtime, 'group_objects', { ids: ['part-0001', 'part-0002'], name: 'Pair' })
    expect(first).toEqual({ status: 'completed', result: { id: `group-${buildSetupEpisode().manifest.id}-1`, name: 'Pair', members: ['part-0001', 'part-0002'] }, index: 1 })
    const second = await callJson(runtime, 'group_objects', { ids: ['part-0003', 'part-0002'] })
    expect(second.result).toEqual({ id: `group-${buildSetupEpisode().manifest.id}-2`, name: 'Group', members: ['part-0003', 'part-0002'] })
    const listed = await callJson(runtime, 'list_objects', {})
    expect((listed.groups as { id: string }[]).map(g => g.id)).toEqual([`group-${buildSetupEpisode().manifest.id}-2`])
    const state = runtime.readState()
    expect(await callJson(runtime, 'ungroup_objects', { ids: [(second.result as { id: string }).id] })).toEqual({ status: 'completed', index: 3 })
    expect(runtime.readState()).toEqual(state)
    expect((await callJson(runtime, 'list_objects', {})).groups).toEqual([])
  })

  it('group_objects with one object and ungroup of an unknown group roll back', async () => {
    const runtime = await openBenchmark()
    expect(await callJson(runtime, 'group_objects', { ids: ['part-0001'] })).toEqual({ error: 'At least two objects are required.', code: 'invalid_argument' })
    expect(await callJson(runtime, 'ungroup_objects', { ids: ['group-x'] })).toEqual({ error: 'Unknown group.', code: 'invalid_argument' })
    const episode = runtime.exportEpisode()
    expect(episode.states).toHaveLength(0)
    expect(episode.trajectory.map(frame => frame.phase)).toEqual(['rollback', 'rollback'])
  })

  it('move_camera commits a camera state (even for {}), never moves objects', async () => {
    const runtime = await openRuntime(buildSetupEpisode({ mutate: e => { e.initial.camera = { position: [0, -3, 0], target: [0, 0, 0] } } }))
    const state = runtime.readState()
    expect(await callJson(runtime, 'move_camera', { yaw: 90 })).toEqual({ status: 'completed', index: 1 })
    expect(runtime.camera.position[0]).toBeCloseTo(3, 12)
    expect(await callJson(runtime, 'move_camera', {})).toEqual({ status: 'completed', index: 2 })
    expect(runtime.readState()).toEqual(state)
    const episode = runtime.exportEpisode()
    expect(episode.states[0]?.camera.position[0]).toBeCloseTo(3, 12)
    expectStoredResultsValid(episode.calls)
  })
})
