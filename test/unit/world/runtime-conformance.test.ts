import { describe, expect, it } from 'vitest'
import { decodeEpisode, encodeEpisode, RESULT_SCHEMAS } from '../../../src/episode/index.ts'
import { callJson, openRuntime, physicsEpisode } from './world-fixture.ts'

describe('§10.1 portable conformance command list', () => {
  it('runs the 12 commands with the expected statuses, errors and step counts', async () => {
    const runtime = await openRuntime(await physicsEpisode())
    expect(runtime.readState()).toHaveLength(69)
    const results: Record<string, unknown>[] = []
    results.push(await callJson(runtime, 'get_scene', {}))
    results.push(await callJson(runtime, 'get_state', {}))
    results.push(await callJson(runtime, 'move_camera', { yaw: 15, pitch: -10, zoom: 0.9, right: 0.1 }))
    results.push(await callJson(runtime, 'translate_objects', { ids: ['a'], delta: [0.02, 0, 0.01], space: 'camera' }))
    results.push(await callJson(runtime, 'group_objects', { ids: ['a', 'b'], name: 'Pair' }))
    results.push(await callJson(runtime, 'rotate_objects', { ids: ['a', 'b'], angles: [10, -5, 20] }))
    results.push(await callJson(runtime, 'edit_poses', {
      poses: [{ id: 'a', position: [0, 0, 0.4], quaternion: [1, 0, 0, 0] }, { id: 'b', position: [1, 0, 0.4], quaternion: [1, 0, 0, 0] }],
    }, { actor: 'human' }))
    results.push(await callJson(runtime, 'apply_force', { id: 'a', force: [1, 0, 0] }))
    const beforeCancel = runtime.readState()
    results.push(await callJson(runtime, 'advance_simulation', { duration: 0.04 }, { cancelAtStep: 3 }))
    expect(runtime.readState()).toEqual(beforeCancel)
    results.push(await callJson(runtime, 'advance_simulation', { duration: 0.4 }))
    results.push(await callJson(runtime, 'get_state', {}))
    results.push(await callJson(runtime, 'set_object_pose', { id: 'a', quaternion: [0, 0, 0, 0] }))

    expect(results[2]).toEqual({ status: 'completed', index: 1 })
    expect(results[3]).toEqual({ status: 'completed', physics: 'advanced', steps: 10, index: 2 })
    expect(results[4]).toEqual({ status: 'completed', result: { id: 'group-conformance-episode-1', name: 'Pair', members: ['a', 'b'] }, index: 3 })
    expect(results[5]).toEqual({ status: 'completed', physics: 'advanced', steps: 10, index: 4 })
    expect(results[6]).toEqual({ status: 'completed', physics: 'advanced', steps: 10, index: 5 })
    expect(results[7]).toEqual({ status: 'completed', physics: 'advanced', steps: 10, index: 6 })
    expect(results[8]).toEqual({ error: 'Operation cancelled.', code: 'cancelled' })
    expect(results[9]).toMatchObject({ status: 'completed', physics: 'advanced', steps: 200, index: 7 })
    expect(results[9]?.duration).toBeCloseTo(0.4, 9)
    expect(results[10]).toMatchObject({ index: 7 })
    expect(results[11]).toEqual({ error: 'Quaternion cannot be zero.', code: 'invalid_argument' })

    const episode = runtime.exportEpisode()
    const { calls, trajectory } = episode
    expect(calls.map(c => [c.name, c.actor, c.status, c.steps, c.state_index])).toEqual([
      ['get_scene', 'agent', 'completed', 0, 0],
      ['get_state', 'agent', 'completed', 0, 0],
      ['move_camera', 'agent', 'completed', 0, 1],
      ['translate_objects', 'agent', 'completed', 10, 2],
      ['group_objects', 'agent', 'completed', 0, 3],
      ['rotate_objects', 'agent', 'completed', 10, 4],
      ['edit_poses', 'human', 'completed', 10, 5],
      ['apply_force', 'agent', 'completed', 10, 6],
      ['advance_simulation', 'agent', 'error', 3, 6],
      ['advance_simulation', 'agent', 'completed', 200, 7],
      ['get_state', 'agent', 'completed', 0, 7],
      ['set_object_pose', 'agent', 'error', 0, 7],
    ])
    const cancelled = calls[8]!
    expect(cancelled).toMatchObject({ error_code: 'cancelled', cancellation: { phase: 'physics', step: 3 } })
    expect(trajectory.slice(cancelled.trace_start, cancelled.trace_end).map(f => [f.phase, f.step])).toEqual([['input', 0], ['physics', 1], ['physics', 2], ['physics', 3], ['rollback', 3]])
    const force = calls[7]!
    const forceFrames = trajectory.slice(force.trace_start, force.trace_end)
    expect(forceFrames.map(f => f.phase)).toEqual(['input', ...Array(10).fill('physics'), 'final'])
    expect(forceFrames[1]?.applied).toEqual({ body: 1, values: [1, 0, 0] })
    const last = calls[11]!
    expect(trajectory.slice(last.trace_start, last.trace_end).map(f => f.phase)).toEqual(['rollback'])
    // Time advances with physics: 10 + 10 + 10 + 10 + 200 steps of 2 ms.
    expect(calls[9]?.sim_end).toBeCloseTo(0.48, 12)
    expect(episode.states.at(-1)?.integration[0]).toBeCloseTo(0.48, 12)
    for (const call of calls) if (call.status === 'completed') expect(RESULT_SCHEMAS[call.name].safeParse(call.result).success, call.name).toBe(true)
    const decoded = await decodeEpisode(await encodeEpisode(episode))
    expect(decoded.trajectory).toHaveLength(trajectory.length)
    expect(decoded.trajectory.at(-2)?.integration).toEqual(trajectory.at(-2)?.integration)
  })

  it('replaying the command list from the setup archive reproduces the states bit for bit', async () => {
    const run = async () => {
      const runtime = await openRuntime(await physicsEpisode())
      await callJson(runtime, 'translate_objects', { ids: ['a'], delta: [0.02, 0, 0.01], space: 'camera' })
      await callJson(runtime, 'apply_force', { id: 'b', force: [0, 3, 0] })
      await callJson(runtime, 'advance_simulation', { duration: 0.1 })
      return runtime.exportEpisode()
    }
    const [first, second] = [await run(), await run()]
    expect(second.states.map(s => s.integration)).toEqual(first.states.map(s => s.integration))
    expect(second.trajectory.map(s => s.integration)).toEqual(first.trajectory.map(s => s.integration))
  })
})

describe('§10.1 physics cases', () => {
  const cases = [
    { name: 'settled', physics: { strategy: 'settle', gravity: [0, 0, 0], quietDuration: 0.006, maxDuration: 0.02 }, outcome: 'settled', steps: 3, settle: true },
    { name: 'timeout', physics: { strategy: 'settle', gravity: [0, 0, -9.81], quietDuration: 0.006, maxDuration: 0.02 }, outcome: 'timeout', steps: 10, settle: true },
    { name: 'detection-disabled', physics: { detection: false, response: true }, outcome: 'advanced', steps: 10, settle: false },
    { name: 'response-disabled', physics: { detection: true, response: false }, outcome: 'advanced', steps: 10, settle: false },
    { name: 'object-collision-disabled', physics: {}, collisionOffA: true, outcome: 'advanced', steps: 10, settle: false },
  ] as const

  for (const c of cases) {
    it(`${c.name}: ${c.outcome} after ${c.steps} steps`, async () => {
      const objects = 'collisionOffA' in c ? [{ id: 'a', name: 'Sphere', type: 'rigid' as const, collisionEnabled: false }, { id: 'b', name: 'Box', type: 'rigid' as const }] : undefined
      const gravity: [number, number, number] = 'gravity' in c.physics ? [...c.physics.gravity] : [0, 0, -9.81]
      const runtime = await openRuntime(await physicsEpisode({ ...c.physics, gravity }, objects))
      const delta = c.settle ? [0, 0, 0.01] : [0, 0, -0.31]
      const result = await callJson(runtime, 'translate_objects', { ids: ['a'], delta })
      expect(result).toEqual({ status: 'completed', physics: c.outcome, steps: c.steps, index: 1 })
      const state = await callJson(runtime, 'get_state', {})
      const contacts = state.contacts as unknown[]
      if (c.name === 'detection-disabled') expect(contacts).toEqual([])
      if (c.name === 'response-disabled') expect(contacts.length).toBeGreaterThan(0)
    })
  }

  it('collision settings change the result of the −0.31 drop', async () => {
    const zOfA = async (physics: Parameters<typeof physicsEpisode>[0]) => {
      const runtime = await openRuntime(await physicsEpisode(physics))
      await callJson(runtime, 'translate_objects', { ids: ['a'], delta: [0, 0, -0.31] })
      return runtime.readState()[3]!
    }
    const responding = await zOfA({})
    const detectionOff = await zOfA({ detection: false, response: true })
    const responseOff = await zOfA({ detection: true, response: false })
    expect(responding).toBeGreaterThan(detectionOff)
    expect(detectionOff).toBeCloseTo(responseOff, 12)
  })

  it('physics disabled: pose edits keep time 0 and run no steps; advance_simulation is refused', async () => {
    const runtime = await openRuntime(await physicsEpisode({ enabled: false }))
    expect(await callJson(runtime, 'set_object_pose', { id: 'a', position: [0, 0, 1] })).toEqual({ status: 'completed', physics: 'disabled', index: 1 })
    expect(runtime.readState()[0]).toBe(0)
    expect(await callJson(runtime, 'advance_simulation', { duration: 0.1 })).toEqual({ error: 'Physics is disabled.', code: 'disabled' })
    expect(await callJson(runtime, 'apply_force', { id: 'a', force: [1, 0, 0] })).toEqual({ error: 'Force requires enabled physics and magnitude <=20 N.', code: 'invalid_argument' })
  })

  it('apply_force rejects more than 20 N; a call while another runs is busy and recorded', async () => {
    const runtime = await openRuntime(await physicsEpisode())
    expect(await callJson(runtime, 'apply_force', { id: 'a', force: [0, 0, 21] })).toMatchObject({ code: 'invalid_argument' })
    const long = runtime.callTool('advance_simulation', { duration: 1 })
    const busy = await callJson(runtime, 'get_state', {})
    expect(busy).toEqual({ error: 'Operation is running.', code: 'busy' })
    expect(JSON.parse(await long)).toMatchObject({ status: 'completed', steps: 500 })
    const { calls, events } = runtime.exportEpisode()
    expect(calls.map(c => [c.name, c.status])).toEqual([['apply_force', 'error'], ['advance_simulation', 'completed'], ['get_state', 'error']])
    expect(events.map(e => [e.call_id, e.kind])).toEqual([
      ['call-0', 'request'], ['call-0', 'complete'], ['call-1', 'request'], ['call-2', 'request'], ['call-2', 'complete'], ['call-1', 'complete'],
    ])
    await expect(decodeEpisode(await encodeEpisode(runtime.exportEpisode()))).resolves.toBeDefined()
  })

  it('an aborted signal cancels before the call starts (phase input)', async () => {
    const runtime = await openRuntime(await physicsEpisode())
    const controller = new AbortController()
    controller.abort()
    expect(await callJson(runtime, 'translate_objects', { ids: ['a'], delta: [0, 0, 0.1] }, { signal: controller.signal })).toEqual({ error: 'Operation cancelled.', code: 'cancelled' })
    expect(runtime.exportEpisode().calls[0]?.cancellation).toEqual({ phase: 'input', step: 0 })
  })
})
