// Assembles the capture scene of one compiled model: geoms, materials, lights, background (§8); no drawing.
import type { MjModel } from '@mujoco/mujoco'
import { Color, DirectionalLight, DoubleSide, HemisphereLight, Mesh, MeshStandardMaterial, Scene } from 'three'
import { CAPTURE_BACKGROUND, CAPTURE_DIRECTIONAL_LIGHT, CAPTURE_HEMISPHERE_LIGHT, CAPTURE_MATERIAL } from './capture-style.ts'
import { createGeomGeometry } from './geom-geometry.ts'

/** The scene built for one model; `meshes[i]` draws geom i. */
export interface CaptureScene {
  scene: Scene
  meshes: Mesh<ReturnType<typeof createGeomGeometry>, MeshStandardMaterial>[]
  /** Frees every geometry and material (the scene is unusable afterwards). */
  dispose(): void
}

/**
 * One mesh per geom (all geoms, none hidden: benchmark models hold only parts), coloured from `geom_rgba`
 * taken as linear RGB, transparent when alpha < 1; the §8 lights and background. Geom poses are not set
 * here: `applyGeomTransforms` does that per capture.
 */
export function createCaptureScene(model: MjModel): CaptureScene {
  const scene = new Scene()
  scene.background = new Color(CAPTURE_BACKGROUND)
  scene.add(new HemisphereLight(CAPTURE_HEMISPHERE_LIGHT.sky, CAPTURE_HEMISPHERE_LIGHT.ground, CAPTURE_HEMISPHERE_LIGHT.intensity))
  const sun = new DirectionalLight(CAPTURE_DIRECTIONAL_LIGHT.color, CAPTURE_DIRECTIONAL_LIGHT.intensity)
  sun.position.set(...CAPTURE_DIRECTIONAL_LIGHT.position)
  scene.add(sun)

  const rgba = model.geom_rgba as Float32Array
  const meshes: CaptureScene['meshes'] = []
  try {
    for (let geom = 0; geom < model.ngeom; geom++) {
      const geometry = createGeomGeometry(model, geom)
      const alpha = rgba[4 * geom + 3] ?? 1
      const material = new MeshStandardMaterial({
        // Color(r, g, b) takes components in the working (linear sRGB) space, as the reference does.
        color: new Color(rgba[4 * geom] ?? 0, rgba[4 * geom + 1] ?? 0, rgba[4 * geom + 2] ?? 0),
        roughness: CAPTURE_MATERIAL.roughness,
        metalness: CAPTURE_MATERIAL.metalness,
        transparent: alpha < 1,
        opacity: alpha,
        side: DoubleSide,
      })
      const mesh = new Mesh(geometry, material)
      mesh.matrixAutoUpdate = false
      scene.add(mesh)
      meshes.push(mesh)
    }
  } catch (error) {
    disposeMeshes(meshes)
    throw error
  }
  return { scene, meshes, dispose: () => disposeMeshes(meshes) }
}

function disposeMeshes(meshes: CaptureScene['meshes']): void {
  for (const mesh of meshes) {
    mesh.geometry.dispose()
    mesh.material.dispose()
  }
}
