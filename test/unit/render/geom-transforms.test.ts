import type { MjData, MjModel } from '@mujoco/mujoco'
import { Matrix4, Object3D, Quaternion, Vector3 } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyGeomTransforms, threeQuaternionFromWxyz } from '../../../src/render/index.ts'
import { compileEpisodeModel, loadMujoco, type Mujoco } from '../../../src/world/index.ts'
import { MJ_STATE_INTEGRATION, partPositionOffset, partQuaternionOffset } from '../../../src/episode/index.ts'
import { buildSetupEpisode, FIXTURE_BOX_HALF } from '../../helpers/episode-fixture.ts'

/** A unit wxyz quaternion from a seeded angle/axis; deterministic. */
function quaternionWxyz(angle: number, axis: [number, number, number]): [number, number, number, number] {
  const n = Math.hypot(...axis)
  const s = Math.sin(angle / 2) / n
  return [Math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s]
}

describe('applyGeomTransforms and threeQuaternionFromWxyz', () => {
  let mujoco: Mujoco
  let model: MjModel
  let data: MjData
  const episode = buildSetupEpisode({ parts: 2 })

  beforeAll(async () => {
    mujoco = await loadMujoco()
    model = compileEpisodeModel(mujoco, episode, 'fixture')
    data = new mujoco.MjData(model)
  })
  afterAll(() => {
    data.delete()
    model.delete()
  })

  const poses: { position: [number, number, number], wxyz: [number, number, number, number] }[] = [
    { position: [0.4, -0.3, 0.2], wxyz: quaternionWxyz(1.1, [1, 2, 3]) },
    { position: [-1, 0.5, 2], wxyz: quaternionWxyz(-2.3, [0, -1, 0.5]) },
  ]

  function restorePoses(): void {
    const state = new Float64Array(episode.initial.integration)
    poses.forEach((pose, i) => {
      state.set(pose.position, partPositionOffset(i + 1))
      state.set(pose.wxyz, partQuaternionOffset(i + 1))
    })
    mujoco.mj_setState(model, data, state as unknown as number[], MJ_STATE_INTEGRATION)
    mujoco.mj_forward(model, data)
  }

  it('puts mesh vertices where the body pose puts the raw OBJ vertices (row-major geom_xmat)', () => {
    restorePoses()
    const meshes = [new Object3D(), new Object3D()]
    applyGeomTransforms(meshes, data.geom_xpos as Float64Array, data.geom_xmat as Float64Array)
    const vert = model.mesh_vert as Float32Array
    const vertAdr = model.mesh_vertadr as Int32Array
    poses.forEach((pose, part) => {
      const body = new Matrix4().compose(new Vector3(...pose.position), threeQuaternionFromWxyz(new Quaternion(), pose.wxyz), new Vector3(1, 1, 1))
      // The fixture bakes box `part` around (0.3·part, 0, 0); mesh_vert is that box re-centred.
      const bakedCentre = new Vector3(0.3 * part, 0, 0)
      for (let v = 0; v < 8; v++) {
        const k = 3 * ((vertAdr[part] ?? 0) + v)
        const local = new Vector3(vert[k], vert[k + 1], vert[k + 2])
        const drawn = local.clone().applyMatrix4(meshes[part]?.matrix ?? new Matrix4())
        const expected = local.clone().add(bakedCentre).applyMatrix4(body)
        expect(drawn.distanceTo(expected)).toBeLessThan(1e-6)
      }
      expect(Math.abs(vert[3 * (vertAdr[part] ?? 0)] ?? 0)).toBeCloseTo(FIXTURE_BOX_HALF, 6)
    })
  })

  it('agrees with MuJoCo xquat through the one wxyz → three.js conversion', () => {
    restorePoses()
    const meshes = [new Object3D(), new Object3D()]
    applyGeomTransforms(meshes, data.geom_xpos as Float64Array, data.geom_xmat as Float64Array)
    const xquat = data.xquat as Float64Array
    meshes.forEach((mesh, i) => {
      const fromMatrix = new Quaternion().setFromRotationMatrix(mesh.matrix)
      const fromBody = threeQuaternionFromWxyz(new Quaternion(), xquat, 4 * (i + 1))
      expect(Math.abs(fromMatrix.dot(fromBody))).toBeCloseTo(1, 9)
    })
  })

  it('reads w first: [w, x, y, z] becomes three.js (x, y, z, w)', () => {
    expect(threeQuaternionFromWxyz(new Quaternion(), [0.1, 0.2, 0.3, 0.4]).toArray()).toEqual([0.2, 0.3, 0.4, 0.1])
    expect(threeQuaternionFromWxyz(new Quaternion(), [9, 1, 0, 0, 0], 1).toArray()).toEqual([0, 0, 0, 1])
  })
})
