import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import { describe, expect, it } from 'vitest'
import { compileWorld, loadMujoco, readBodyPoses } from '../../src/world/index.ts'

const encoder = new TextEncoder()

describe('world runtime in the page', () => {
  it('loads MuJoCo 3.12.0 from its wasm URL, compiles a world and reads a restored pose', async () => {
    const mujoco = await loadMujoco({ locateFile: path => (path.endsWith('.wasm') ? wasmUrl : path) })
    expect(mujoco.mj_versionString()).toBe('3.12.0')
    const xml = '<mujoco><option gravity="0 0 0"/><worldbody><body name="part-0001"><freejoint/>' +
      '<geom type="box" size="0.1 0.2 0.3" contype="0" conaffinity="0"/></body></worldbody></mujoco>'
    const model = compileWorld(mujoco, new Map([['world/model.xml', encoder.encode(xml)]]))
    try {
      const state = new Float64Array(31 + 7)
      state.set([0.25, -1, 2, 0, 1, 0, 0], 1) // 180° about x
      const [pose] = readBodyPoses(mujoco, model, state, ['part-0001'], { stateSpec: 16383 })
      expect(Array.from(pose!.position)).toEqual([0.25, -1, 2])
      expect(Array.from(pose!.rotation)).toEqual([1, 0, 0, 0, -1, 0, 0, 0, -1])
    } finally {
      model.delete()
    }
  })
})
