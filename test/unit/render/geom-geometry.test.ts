import type { MjModel } from '@mujoco/mujoco'
import { Box3, type BufferGeometry, Vector3 } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeomGeometry, GEOM_SEGMENTS, GEOM_TYPE, INFINITE_PLANE_EDGE } from '../../../src/render/index.ts'
import { compileWorld, loadMujoco } from '../../../src/world/index.ts'
import { boxObj } from '../../helpers/episode-fixture.ts'

const encoder = new TextEncoder()
// One geom of each supported type; the mesh is an off-centre box that MuJoCo re-centres into its inertial frame.
const XML = `<mujoco>
  <asset><mesh name="m" file="m.obj"/></asset>
  <worldbody>
    <geom name="plane" type="plane" size="2 3 0.1"/>
    <geom name="infinite" type="plane" size="0 0 1"/>
    <geom name="sphere" type="sphere" size="0.25"/>
    <geom name="capsule" type="capsule" size="0.1 0.3"/>
    <geom name="ellipsoid" type="ellipsoid" size="0.1 0.2 0.3"/>
    <geom name="cylinder" type="cylinder" size="0.15 0.4"/>
    <geom name="box" type="box" size="0.1 0.2 0.3"/>
    <geom name="mesh" type="mesh" mesh="m"/>
  </worldbody>
</mujoco>`

function extent(geometry: BufferGeometry): number[] {
  geometry.computeBoundingBox()
  const box = geometry.boundingBox ?? new Box3()
  return [box.min.x, box.max.x, box.min.y, box.max.y, box.min.z, box.max.z].map(v => Math.round(v * 1e6) / 1e6)
}

describe('createGeomGeometry', () => {
  let model: MjModel
  const geom = (name: string): number => ['plane', 'infinite', 'sphere', 'capsule', 'ellipsoid', 'cylinder', 'box', 'mesh'].indexOf(name)

  beforeAll(async () => {
    const mujoco = await loadMujoco()
    model = compileWorld(mujoco, new Map([
      ['world/model.xml', encoder.encode(XML)],
      ['world/m.obj', encoder.encode(boxObj([1, 2, 3], 0.2))],
    ]))
  })
  afterAll(() => model.delete())

  it('sizes analytic geoms from geom_size and runs capsules and cylinders along +Z', () => {
    expect((model.geom_type as Int32Array)[geom('capsule')]).toBe(GEOM_TYPE.capsule)
    expect(extent(createGeomGeometry(model, geom('plane')))).toEqual([-2, 2, -3, 3, 0, 0])
    expect(extent(createGeomGeometry(model, geom('infinite')))).toEqual([-INFINITE_PLANE_EDGE / 2, INFINITE_PLANE_EDGE / 2, -INFINITE_PLANE_EDGE / 2, INFINITE_PLANE_EDGE / 2, 0, 0])
    expect(extent(createGeomGeometry(model, geom('sphere')))).toEqual([-0.25, 0.25, -0.25, 0.25, -0.25, 0.25])
    const capsule = extent(createGeomGeometry(model, geom('capsule')))
    expect(capsule.slice(4)).toEqual([-0.4, 0.4])
    expect(Math.max(...capsule.slice(0, 4).map(Math.abs))).toBeLessThanOrEqual(0.1)
    expect(extent(createGeomGeometry(model, geom('ellipsoid')))).toEqual([-0.1, 0.1, -0.2, 0.2, -0.3, 0.3])
    const cylinder = extent(createGeomGeometry(model, geom('cylinder')))
    expect(cylinder.slice(4)).toEqual([-0.4, 0.4])
    expect(Math.max(...cylinder.slice(0, 4).map(Math.abs))).toBeCloseTo(0.15, 6)
    expect(extent(createGeomGeometry(model, geom('box')))).toEqual([-0.1, 0.1, -0.2, 0.2, -0.3, 0.3])
  })

  it('tessellates like the reference (sphere 32 × 20, cylinder 32 radial)', () => {
    const sphere = createGeomGeometry(model, geom('sphere'))
    expect(sphere.getAttribute('position').count).toBe((GEOM_SEGMENTS.sphereWidth + 1) * (GEOM_SEGMENTS.sphereHeight + 1))
    expect(GEOM_SEGMENTS).toMatchObject({ sphereWidth: 32, sphereHeight: 20, cylinderRadial: 32 })
  })

  it('builds meshes from mesh_vert / mesh_face as an indexed geometry with unit smooth normals', () => {
    const geometry = createGeomGeometry(model, geom('mesh'))
    const positions = geometry.getAttribute('position').array
    expect(Array.from(positions)).toEqual(Array.from(model.mesh_vert as Float32Array))
    expect(Array.from(geometry.getIndex()?.array ?? [])).toEqual(Array.from(model.mesh_face as Int32Array))
    // Re-centred into the inertial frame: the box of half edge 0.2 around (1, 2, 3) now sits at the origin.
    expect(extent(geometry).map(Math.abs)).toEqual([0.2, 0.2, 0.2, 0.2, 0.2, 0.2])
    const normals = geometry.getAttribute('normal')
    expect(normals.count).toBe(8)
    for (let i = 0; i < normals.count; i++) {
      const n = new Vector3().fromBufferAttribute(normals, i)
      expect(n.length()).toBeCloseTo(1, 6)
      // Shared corners average the normals of their triangles (area-weighted, three faces): the normal
      // points outwards into the corner's octant, not along one face as unshared vertices would give.
      const p = new Vector3().fromBufferAttribute(geometry.getAttribute('position'), i)
      expect([Math.sign(n.x), Math.sign(n.y), Math.sign(n.z)]).toEqual([Math.sign(p.x), Math.sign(p.y), Math.sign(p.z)])
      expect(n.dot(p.normalize())).toBeGreaterThan(0.9)
    }
  })

  it('rejects a mesh face index outside the mesh with RENDER_MODEL_INVALID', () => {
    const broken = {
      geom_type: Int32Array.of(GEOM_TYPE.mesh), geom_size: new Float64Array(3), geom_dataid: Int32Array.of(0), nmesh: 1,
      mesh_vertadr: Int32Array.of(0), mesh_vertnum: Int32Array.of(3), mesh_faceadr: Int32Array.of(0), mesh_facenum: Int32Array.of(1),
      mesh_vert: new Float32Array(9), mesh_face: Int32Array.of(0, 1, 3),
    } as unknown as MjModel
    expect(() => createGeomGeometry(broken, 0)).toThrow(expect.objectContaining({ code: 'RENDER_MODEL_INVALID' }))
    const missingMesh = { ...broken, geom_dataid: Int32Array.of(4) } as unknown as MjModel
    expect(() => createGeomGeometry(missingMesh, 0)).toThrow(/references mesh 4 of 1/)
  })
})
