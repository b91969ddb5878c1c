import { Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { aimCaptureCamera, createCaptureCamera, MIN_CAMERA_DISTANCE } from '../../../src/render/index.ts'

describe('capture camera', () => {
  it('has the fixed capture intrinsics and +Z up', () => {
    const camera = createCaptureCamera()
    expect([camera.fov, camera.aspect, camera.near, camera.far]).toEqual([38, 4 / 3, 0.01, 1000])
    expect(camera.up.toArray()).toEqual([0, 0, 1])
  })

  it('sits at the agent camera position and looks at its target with world +Z up on screen', () => {
    const camera = aimCaptureCamera(createCaptureCamera(), { position: [2.5, -3.6, 2.8], target: [0, 0, 0] })
    expect(camera.position.toArray()).toEqual([2.5, -3.6, 2.8])
    const forward = camera.getWorldDirection(new Vector3())
    expect(forward.distanceTo(new Vector3(-2.5, 3.6, -2.8).normalize())).toBeLessThan(1e-12)
    // The §4.8 camera axes of the default camera: right ≈ [0.82137, 0.57040, 0], up ≈ [−0.30708, 0.44219, 0.84271].
    const right = new Vector3(1, 0, 0).transformDirection(camera.matrixWorld)
    const up = new Vector3(0, 1, 0).transformDirection(camera.matrixWorld)
    expect(right.toArray().map(v => Number(v.toFixed(5)) + 0)).toEqual([0.82137, 0.5704, 0])
    expect(up.toArray().map(v => Number(v.toFixed(5)) + 0)).toEqual([-0.30708, 0.44219, 0.84271])
  })

  it('refuses non-finite cameras and position/target closer than 0.001', () => {
    const camera = createCaptureCamera()
    expect(() => aimCaptureCamera(camera, { position: [0, 0, 0], target: [0, 0, MIN_CAMERA_DISTANCE * 0.999] })).toThrow(expect.objectContaining({ code: 'RENDER_CAMERA_INVALID' }))
    expect(() => aimCaptureCamera(camera, { position: [0, Number.POSITIVE_INFINITY, 0], target: [0, 0, 0] })).toThrow(/finite/)
    expect(() => aimCaptureCamera(camera, { position: [0, 0, 0], target: [0, 0, MIN_CAMERA_DISTANCE] })).not.toThrow()
  })
})
