// A page agent that edits its world and then never yields, on one sample (the rebuild test): when the scene has
// VITE_AWB_SPIN_PARTS parts it moves, rotates and groups parts, captures the scene, records the poses its world then has
// (a `message` record with REBUILD_POSES_MARKER) and spins on the page's main thread. On every other sample it stops at once.
import { defineAgent } from '../../../src/agents/index.ts'

/** Starts the assistant message that carries the world's poses as JSON (`[{id, position, quaternion}]`). */
export const REBUILD_POSES_MARKER = 'awb-rebuild-test poses: '

export default defineAgent({
  name: 'edit-then-spin',
  async run({ tools, record }) {
    const listed = JSON.parse(await tools.call('list_objects', {})) as { objects: { id: string }[] }
    const spinParts = Number((import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_AWB_SPIN_PARTS ?? '0')
    if (listed.objects.length !== spinParts) {
      return { finalAnswer: JSON.stringify({ status: 'partial', summary: 'left the parts as they were', checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }
    }
    const [first, second, third] = listed.objects.map(object => object.id)
    await tools.call('translate_objects', { ids: [first], delta: [0.05, -0.02, 0.01] })
    await tools.call('rotate_objects', { ids: [second], angles: [0, 30, -15] })
    const group = JSON.parse(await tools.call('group_objects', { ids: [first, third], name: 'Pair' })) as { result: { id: string } }
    // The group turns about the mean of its members' origins: the third part moves too.
    await tools.call('rotate_objects', { ids: [group.result.id], angles: [45, 0, 0] })
    await tools.call('move_camera', { yaw: 25, pitch: -10 })
    await tools.call('capture_scene', {})
    await tools.call('set_object_pose', { id: second, position: [0.1, 0.2, -0.05] })
    const state = JSON.parse(await tools.call('get_state', {})) as { objects: { id: string; position: number[]; quaternion: number[] }[] }
    await record({ type: 'message', role: 'assistant', content: `${REBUILD_POSES_MARKER}${JSON.stringify(state.objects.map(({ id, position, quaternion }) => ({ id, position, quaternion })))}` })
    for (;;) { /* never yields */ }
  },
})
