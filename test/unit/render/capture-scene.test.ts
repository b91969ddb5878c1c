import type { MjModel } from '@mujoco/mujoco'
import { Color, DirectionalLight, DoubleSide, HemisphereLight, LinearSRGBColorSpace } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaptureScene } from '../../../src/render/index.ts'
import { compileWorld, loadMujoco } from '../../../src/world/index.ts'

const XML = `<mujoco><worldbody>
  <geom type="box" size="0.1 0.1 0.1" rgba="0.70 0.73 0.79 1"/>
  <geom type="sphere" size="0.1" rgba="0.2 0.4 0.6 0.5"/>
</worldbody></mujoco>`

describe('createCaptureScene', () => {
  let model: MjModel
  beforeAll(async () => {
    model = compileWorld(await loadMujoco(), new Map([['world/model.xml', new TextEncoder().encode(XML)]]))
  })
  afterAll(() => model.delete())

  it('draws every geom with a double-sided standard material coloured by geom_rgba taken as linear RGB', () => {
    const { meshes, dispose } = createCaptureScene(model)
    expect(meshes).toHaveLength(2)
    const rgba = model.geom_rgba as Float32Array
    for (const [i, mesh] of meshes.entries()) {
      const material = mesh.material
      expect(material.type).toBe('MeshStandardMaterial')
      expect([material.roughness, material.metalness, material.side]).toEqual([0.7, 0, DoubleSide])
      const linear = material.color.getRGB({ r: 0, g: 0, b: 0 }, LinearSRGBColorSpace)
      expect([linear.r, linear.g, linear.b]).toEqual([rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]])
      expect(mesh.matrixAutoUpdate).toBe(false)
    }
    expect([meshes[0]?.material.transparent, meshes[0]?.material.opacity]).toEqual([false, 1])
    expect([meshes[1]?.material.transparent, meshes[1]?.material.opacity]).toEqual([true, rgba[7]])
    dispose()
  })

  it('lights and clears like the reference: hemisphere + directional light, #181825 background', () => {
    const { scene, dispose } = createCaptureScene(model)
    expect((scene.background as Color).getHexString()).toBe('181825')
    const hemisphere = scene.children.find((o): o is HemisphereLight => o instanceof HemisphereLight)
    expect([hemisphere?.color.getHex(), hemisphere?.groundColor.getHex(), hemisphere?.intensity]).toEqual([0xc6d3e8, 0x525057, 2])
    const sun = scene.children.find((o): o is DirectionalLight => o instanceof DirectionalLight)
    expect([sun?.color.getHex(), sun?.intensity, sun?.position.toArray(), sun?.target.position.toArray()]).toEqual([0xffefd9, 2.5, [-1, -2, 5], [0, 0, 0]])
    expect(sun?.castShadow).toBe(false)
    dispose()
  })
})
