// Places every geom mesh at its live world pose from MuJoCo's geom_xpos / geom_xmat; no rendering here.
// Memory layout: `geom_xpos` is 3 float64 per geom, `geom_xmat` is a row-major 3×3 (9 float64) per geom.
import type { Object3D } from 'three'

/**
 * Sets `meshes[i]`'s local matrix (their parent is the identity scene root) to the rigid transform
 * (`geom_xmat[i]`, `geom_xpos[i]`). The meshes must have `matrixAutoUpdate = false`. Allocates nothing.
 */
export function applyGeomTransforms(meshes: readonly Object3D[], geomXpos: ArrayLike<number>, geomXmat: ArrayLike<number>): void {
  for (let i = 0; i < meshes.length; i++) {
    const mesh = meshes[i]
    if (mesh === undefined) continue
    const p = 3 * i
    const r = 9 * i
    // Matrix4.set takes row-major arguments, the order MuJoCo stores xmat in.
    mesh.matrix.set(
      geomXmat[r] ?? 0, geomXmat[r + 1] ?? 0, geomXmat[r + 2] ?? 0, geomXpos[p] ?? 0,
      geomXmat[r + 3] ?? 0, geomXmat[r + 4] ?? 0, geomXmat[r + 5] ?? 0, geomXpos[p + 1] ?? 0,
      geomXmat[r + 6] ?? 0, geomXmat[r + 7] ?? 0, geomXmat[r + 8] ?? 0, geomXpos[p + 2] ?? 0,
      0, 0, 0, 1,
    )
    mesh.matrixWorldNeedsUpdate = true
  }
}
