import { describe, expect, it } from 'vitest'
import { applyQuaternionToVector, composeAxisRotations, multiplyQuaternions, normalizeQuaternion } from '../../../src/world/rotation-math.ts'

const WORLD_AXES = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1])

function rotationOf(angles: [number, number, number]): number[] {
  return [...composeAxisRotations(new Float64Array(4), WORLD_AXES, angles)]
}

describe('composeAxisRotations (§4.9)', () => {
  it('gives the reference quaternions', () => {
    const x90 = rotationOf([90, 0, 0])
    ;[Math.SQRT1_2, Math.SQRT1_2, 0, 0].forEach((v, i) => expect(x90[i]).toBeCloseTo(v, 15))
    const xy90 = rotationOf([90, 90, 0])
    ;[0.5, 0.5, 0.5, -0.5].forEach((v, i) => expect(xy90[i]).toBeCloseTo(v, 15))
  })

  it('is extrinsic X then Y then Z: R = Rz · Ry · Rx', () => {
    const q = rotationOf([30, -40, 70])
    const manual = new Float64Array([1, 0, 0, 0])
    for (const [axis, angle] of [[1, 30], [2, -40], [3, 70]] as const) {
      const step = new Float64Array(4)
      step[0] = Math.cos((angle * Math.PI) / 360)
      step[axis] = Math.sin((angle * Math.PI) / 360)
      multiplyQuaternions(manual, step, manual)
    }
    q.forEach((v, i) => expect(v).toBeCloseTo(manual[i] ?? NaN, 15))
    expect(Math.hypot(...q)).toBeCloseTo(1, 15)
  })

  it('rotates the point (1, 0, 0) by Z 90 to (0, 1, 0)', () => {
    const point = applyQuaternionToVector(new Float64Array([1, 0, 0]), 0, new Float64Array(rotationOf([0, 0, 90])))
    expect(point[0]).toBeCloseTo(0, 15)
    expect(point[1]).toBeCloseTo(1, 15)
    expect(point[2]).toBeCloseTo(0, 15)
  })

  it('normalizes a zero quaternion to the identity (callers reject it first)', () => {
    expect([...normalizeQuaternion(new Float64Array(4))]).toEqual([1, 0, 0, 0])
  })
})
