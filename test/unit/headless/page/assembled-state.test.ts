// assembledIntegration: the benchmark row it writes (layout, identity for unlisted parts) and the layouts it refuses.
import { describe, expect, it } from 'vitest'
import { benchmarkStateSize, partPositionOffset, partQuaternionOffset, readBenchmarkPoses } from '../../../../src/episode/index.ts'
import { assembledIntegration } from '../../../../src/headless/page/assembled-state.ts'
import { compileWorld, loadMujoco, readBodyPoses } from '../../../../src/world/index.ts'
import { buildSetupEpisode } from '../../../helpers/episode-fixture.ts'

const mujoco = await loadMujoco()
const encoder = new TextEncoder()

function compileXml(xml: string) {
  return compileWorld(mujoco, new Map([['world/model.xml', encoder.encode(xml)]]), { source: 'inline.xml' })
}

describe('assembledIntegration', () => {
  it('writes each listed pose at its part offsets and leaves the others at identity; MuJoCo places the bodies there', () => {
    const model = compileWorld(mujoco, buildSetupEpisode({ parts: 3 }).world)
    try {
      const row = assembledIntegration(mujoco, model, [
        { bodyId: 'part-0003', position: [0.5, -0.25, 1], quaternion: [0, 0, 0, 1] },
        { bodyId: 'part-0001', position: [0.1, 0.2, 0.3], quaternion: [Math.SQRT1_2, Math.SQRT1_2, 0, 0] },
      ], 'test')
      expect(row).toHaveLength(benchmarkStateSize(3))
      expect([...row.subarray(partPositionOffset(1), partPositionOffset(1) + 7)]).toEqual([0.1, 0.2, 0.3, Math.SQRT1_2, Math.SQRT1_2, 0, 0])
      expect([...row.subarray(partPositionOffset(2), partPositionOffset(2) + 7)]).toEqual([0, 0, 0, 1, 0, 0, 0])
      expect([...row.subarray(partQuaternionOffset(3), partQuaternionOffset(3) + 4)]).toEqual([0, 0, 0, 1])
      // Everything after qpos (velocities, actuation, warm start) and the time stay zero.
      expect(row[0]).toBe(0)
      expect(row.subarray(1 + 7 * 3).every(v => v === 0)).toBe(true)

      const mujocoPoses = readBodyPoses(mujoco, model, row, ['part-0001', 'part-0003'], { stateSpec: 16383 })
      const layoutPoses = readBenchmarkPoses(row, 3)
      expect([...mujocoPoses[0]!.position]).toEqual([0.1, 0.2, 0.3])
      expect([...mujocoPoses[1]!.position]).toEqual([0.5, -0.25, 1])
      for (let k = 0; k < 9; k++) expect(mujocoPoses[1]!.rotation[k]).toBeCloseTo(layoutPoses.rotations[18 + k]!, 12)
    } finally {
      model.delete()
    }
  })

  it('refuses a body the model does not have, naming it and the page', () => {
    const model = compileWorld(mujoco, buildSetupEpisode({ parts: 2 }).world)
    try {
      const call = () => assembledIntegration(mujoco, model, [{ bodyId: 'part-0009', position: [0, 0, 0], quaternion: [1, 0, 0, 0] }], 'block / sample page 1')
      expect(call).toThrow(expect.objectContaining({ code: 'RENDER_MODEL_INVALID' }))
      expect(call).toThrow(/block \/ sample page 1.*"part-0009"/)
    } finally {
      model.delete()
    }
  })

  it('refuses models that are not benchmark scenes of free parts', () => {
    const hinge = compileXml('<mujoco><worldbody><body name="part-0001"><joint type="hinge"/><geom type="box" size="0.1 0.1 0.1"/></body></worldbody></mujoco>')
    // Ball + 3 slides: 7 qpos and 6 dofs like a free joint, so only the layout check can tell.
    const lookalike = compileXml([
      '<mujoco><worldbody>',
      '<body name="part-0001"><joint type="ball"/><joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 1 0"/><joint type="slide" axis="0 0 1"/><geom type="box" size="0.1 0.1 0.1"/></body>',
      '<body name="part-0002"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>',
      '</worldbody></mujoco>',
    ].join(''))
    const empty = compileXml('<mujoco><worldbody><geom type="box" size="0.1 0.1 0.1"/></worldbody></mujoco>')
    try {
      for (const model of [hinge, lookalike, empty]) {
        expect(() => assembledIntegration(mujoco, model, [], 'inline.xml')).toThrow(expect.objectContaining({ code: 'RENDER_MODEL_INVALID' }))
      }
      expect(mujoco.mj_stateSize(lookalike, 16383)).toBe(benchmarkStateSize(2))
      expect(() => assembledIntegration(mujoco, lookalike, [], 'inline.xml')).toThrow(/body 1 is not a world-parented free part/)
    } finally {
      hinge.delete()
      lookalike.delete()
      empty.delete()
    }
  })
})
