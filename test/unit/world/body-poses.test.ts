import { describe, expect, it } from 'vitest'
import { compileWorld, loadMujoco, readBodyPoses, WorldError } from '../../../src/world/index.ts'

const encoder = new TextEncoder()
const STATE_INTEGRATION = 16383

/** Two free boxes, world-parented, benchmark-style (no contacts, no gravity). */
function boxWorldXml(extraAsset = ''): string {
  const body = (name: string) => `<body name="${name}"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>` +
    `<geom type="box" size="0.1 0.2 0.3" contype="0" conaffinity="0"/></body>`
  return `<mujoco model="assembly-task"><compiler angle="radian" autolimits="true"/>` +
    `<option timestep="0.002" gravity="0 0 0"><flag contact="disable" constraint="disable" autoreset="disable"/></option>` +
    `<asset>${extraAsset}</asset><worldbody>${body('part-0001')}${body('part-0002')}</worldbody></mujoco>`
}

function worldOf(files: Record<string, string>): Map<string, Uint8Array> {
  return new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]))
}

describe('compileWorld + readBodyPoses', () => {
  it('restores a state row and reads each body pose; state size is 31N + 7', async () => {
    const mujoco = await loadMujoco()
    const model = compileWorld(mujoco, worldOf({ 'world/model.xml': boxWorldXml() }))
    try {
      expect(mujoco.mj_stateSize(model, STATE_INTEGRATION)).toBe(31 * 2 + 7)
      const state = new Float64Array(69)
      const half = 0.35 // rotation of 0.7 rad about z for part 2, given as a non-normalised quaternion
      state.set([1, 2, 3, 1, 0, 0, 0], 1)
      state.set([-0.5, 0.25, 0, 2 * Math.cos(half), 0, 0, 2 * Math.sin(half)], 8)
      const [first, second] = readBodyPoses(mujoco, model, state, ['part-0001', 'part-0002'], { stateSpec: STATE_INTEGRATION })
      expect(Array.from(first!.position)).toEqual([1, 2, 3])
      expect(Array.from(first!.rotation)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1])
      expect(Array.from(second!.position)).toEqual([-0.5, 0.25, 0])
      const c = Math.cos(0.7), s = Math.sin(0.7)
      const expected = [c, -s, 0, s, c, 0, 0, 0, 1]
      second!.rotation.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 14))
    } finally {
      model.delete()
    }
  })

  it('rejects a state row of the wrong length and an unknown body', async () => {
    const mujoco = await loadMujoco()
    const model = compileWorld(mujoco, worldOf({ 'world/model.xml': boxWorldXml() }))
    try {
      expect(() => readBodyPoses(mujoco, model, new Float64Array(68), ['part-0001'], { stateSpec: STATE_INTEGRATION, source: 'final.episode.zip' }))
        .toThrow(/final\.episode\.zip: a state row has 68 values but the compiled model's state size is 69/)
      expect(() => readBodyPoses(mujoco, model, new Float64Array(69), ['part-0003'], { stateSpec: STATE_INTEGRATION }))
        .toThrow(expect.objectContaining({ code: 'WORLD_BODY_MISSING' }))
    } finally {
      model.delete()
    }
  })

  it('refuses unsafe asset paths, a missing model file, compile errors and unsupported features', async () => {
    const mujoco = await loadMujoco()
    const attempt = (files: Record<string, string>) => {
      try {
        compileWorld(mujoco, worldOf(files), { source: 'x.episode.zip' }).delete()
        return undefined
      } catch (error) {
        expect(error).toBeInstanceOf(WorldError)
        return (error as WorldError).code
      }
    }
    expect(attempt({ 'world/model.xml': boxWorldXml('<mesh name="m" file="../escape.obj"/>') })).toBe('WORLD_ASSET_PATH')
    expect(attempt({ 'world/model.xml': boxWorldXml('<mesh name="m" file="/abs.obj"/>') })).toBe('WORLD_ASSET_PATH')
    expect(attempt({ 'world/model.xml': boxWorldXml('<mesh name="m" file="a&amp;b.obj"/>') })).toBe('WORLD_ASSET_PATH')
    expect(attempt({ 'world/other.xml': boxWorldXml() })).toBe('WORLD_MODEL_MISSING')
    expect(attempt({ 'world/model.xml': '<mujoco><worldbody><body name="x"></mujoco>' })).toBe('WORLD_COMPILE')
    expect(attempt({ 'world/model.xml': boxWorldXml().replace('timestep="0.002"', 'timestep="0.5"') })).toBe('WORLD_UNSUPPORTED')
    expect(attempt({ 'world/model.xml': boxWorldXml().replace('type="box" size="0.1 0.2 0.3"', 'type="hfield"') })).not.toBeUndefined()
  })
})
