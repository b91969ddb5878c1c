import { describe, expect, it } from 'vitest'
import { cameraAxes, cameraToWorld, moveCamera } from '../../../src/world/camera-math.ts'
import type { CameraState } from '../../../src/world/index.ts'

const DEFAULT_CAMERA: CameraState = { position: [2.5, -3.6, 2.8], target: [0, 0, 0] }
const FRONT_CAMERA: CameraState = { position: [0, -3, 0], target: [0, 0, 0] }

function expectClose(actual: readonly number[], expected: readonly number[], digits: number): void {
  expect(actual).toHaveLength(expected.length)
  actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i] ?? NaN, digits))
}

describe('cameraAxes (§4.8)', () => {
  it('gives the reference axes of the default camera', () => {
    const axes = cameraAxes(new Float64Array(9), DEFAULT_CAMERA)
    expectClose([...axes.subarray(0, 3)], [0.82137, 0.57040, 0], 5)
    expectClose([...axes.subarray(3, 6)], [-0.30708, 0.44219, 0.84271], 5)
    expectClose([...axes.subarray(6, 9)], [-0.48068, 0.69218, -0.53836], 5)
  })

  it('maps camera space of a front camera to right = +X, up = +Z, forward = +Y', () => {
    const axes = cameraAxes(new Float64Array(9), FRONT_CAMERA)
    expect(cameraToWorld(axes, 1, 0, 0)).toEqual([1, 0, 0])
    expect(cameraToWorld(axes, 0, 1, 0)).toEqual([0, 0, 1])
    expect(cameraToWorld(axes, 0, 0, 1)).toEqual([0, 1, 0])
  })

  it('falls back to forward × Y when looking straight down, keeping an orthonormal frame', () => {
    const axes = cameraAxes(new Float64Array(9), { position: [0, 0, 5], target: [0, 0, 0] })
    const [r, u, f] = [[...axes.subarray(0, 3)], [...axes.subarray(3, 6)], [...axes.subarray(6, 9)]]
    for (const v of [r, u, f]) expect(Math.hypot(...v)).toBeCloseTo(1, 12)
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0)
    expect(dot(r, u)).toBeCloseTo(0, 12)
    expect(dot(r, f)).toBeCloseTo(0, 12)
    expect(f).toEqual([0, 0, -1])
  })
})

describe('moveCamera (§4.8 reference values)', () => {
  it('yaw 90 orbits the front camera to +X', () => {
    expectClose(moveCamera(FRONT_CAMERA, { yaw: 90 }).position, [3, 0, 0], 12)
  })

  it('pitch −30 raises the front camera', () => {
    expectClose(moveCamera(FRONT_CAMERA, { pitch: -30 }).position, [0, -2.598076, 1.5], 6)
  })

  it('reproduces the combined default-camera move', () => {
    const moved = moveCamera(DEFAULT_CAMERA, { yaw: 15, pitch: -10, zoom: 0.9, right: 0.1 })
    expectClose(moved.position, [2.7141633812114403, -2.168941362311302, 3.1666932201867692], 13)
    expectClose(moved.target, [0.08213699656732958, 0.05703958094953442, 0], 15)
  })

  it('clamps the polar angle away from the pole and the radius to 0.01', () => {
    const top = moveCamera(FRONT_CAMERA, { pitch: -85 })
    const topAgain = moveCamera(top, { pitch: -85 })
    // φ ≥ 0.02 rad: the camera never reaches the pole, so the horizontal offset stays 3·sin(0.02).
    expect(Math.hypot(topAgain.position[0], topAgain.position[1])).toBeCloseTo(3 * Math.sin(0.02), 12)
    let close = FRONT_CAMERA
    for (let i = 0; i < 12; i++) close = moveCamera(close, { zoom: 0.25 })
    expect(Math.hypot(...close.position)).toBeCloseTo(0.01, 12)
  })

  it('pans eye and target together along the pre-move axes', () => {
    const moved = moveCamera(FRONT_CAMERA, { right: 1, up: 2 })
    expectClose(moved.target, [1, 0, 2], 15)
    expectClose(moved.position, [1, -3, 2], 15)
  })
})
