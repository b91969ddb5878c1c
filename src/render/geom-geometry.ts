// Builds one three.js geometry per MuJoCo geom from the compiled model's arrays (§8); no materials or poses.
import type { MjModel } from '@mujoco/mujoco'
import { BoxGeometry, BufferAttribute, BufferGeometry, CapsuleGeometry, CylinderGeometry, PlaneGeometry, SphereGeometry } from 'three'
import { GEOM_SEGMENTS, INFINITE_PLANE_EDGE } from './capture-style.ts'
import { RenderError } from './errors.ts'

/** MuJoCo `mjtGeom` values the renderer distinguishes; any other type is drawn as a box (§8). */
export const GEOM_TYPE = { plane: 0, sphere: 2, capsule: 3, ellipsoid: 4, cylinder: 5, box: 6, mesh: 7 } as const

/** three.js builds cylinders and capsules along +Y; MuJoCo's run along the geom's +Z. */
const Y_TO_Z_RAD = Math.PI / 2

/**
 * The geometry of geom `geom` in the geom's own frame (the frame `geom_xpos` / `geom_xmat` place in the
 * world). Meshes come from `mesh_vert` (float32, the mesh's inertial frame) and `mesh_face`, with smooth
 * normals averaged over shared vertices. Throws `RenderError` for a mesh reference outside the model.
 */
export function createGeomGeometry(model: MjModel, geom: number): BufferGeometry {
  const type = (model.geom_type as Int32Array)[geom]
  const size = model.geom_size as Float64Array
  const x = size[3 * geom] ?? 0
  const y = size[3 * geom + 1] ?? 0
  const z = size[3 * geom + 2] ?? 0
  switch (type) {
    case GEOM_TYPE.plane:
      return new PlaneGeometry(x > 0 ? 2 * x : INFINITE_PLANE_EDGE, y > 0 ? 2 * y : INFINITE_PLANE_EDGE)
    case GEOM_TYPE.sphere:
      return new SphereGeometry(x, GEOM_SEGMENTS.sphereWidth, GEOM_SEGMENTS.sphereHeight)
    case GEOM_TYPE.capsule:
      // MuJoCo capsule size = (radius, half-length of the cylinder part).
      return new CapsuleGeometry(x, 2 * y, GEOM_SEGMENTS.capsuleCap, GEOM_SEGMENTS.capsuleRadial).rotateX(Y_TO_Z_RAD)
    case GEOM_TYPE.ellipsoid:
      return new SphereGeometry(1, GEOM_SEGMENTS.sphereWidth, GEOM_SEGMENTS.sphereHeight).scale(x, y, z)
    case GEOM_TYPE.cylinder:
      return new CylinderGeometry(x, x, 2 * y, GEOM_SEGMENTS.cylinderRadial).rotateX(Y_TO_Z_RAD)
    case GEOM_TYPE.mesh:
      return createMeshGeometry(model, geom)
    default:
      return new BoxGeometry(2 * x, 2 * y, 2 * z)
  }
}

function createMeshGeometry(model: MjModel, geom: number): BufferGeometry {
  const mesh = (model.geom_dataid as Int32Array)[geom] ?? -1
  if (mesh < 0 || mesh >= model.nmesh) {
    throw new RenderError('RENDER_MODEL_INVALID', `geom ${geom} is a mesh geom but references mesh ${mesh} of ${model.nmesh}; recompile the model`)
  }
  const vertStart = (model.mesh_vertadr as Int32Array)[mesh] ?? 0
  const vertCount = (model.mesh_vertnum as Int32Array)[mesh] ?? 0
  const faceStart = (model.mesh_faceadr as Int32Array)[mesh] ?? 0
  const faceCount = (model.mesh_facenum as Int32Array)[mesh] ?? 0
  // Copies: the model's arrays are views into the wasm heap, which may move when it grows.
  const positions = (model.mesh_vert as Float32Array).slice(3 * vertStart, 3 * (vertStart + vertCount))
  const faces = (model.mesh_face as Int32Array).subarray(3 * faceStart, 3 * (faceStart + faceCount))
  const index = new Uint32Array(faces.length)
  for (let k = 0; k < faces.length; k++) {
    const vertex = faces[k] ?? -1
    if (vertex < 0 || vertex >= vertCount) {
      throw new RenderError('RENDER_MODEL_INVALID', `mesh ${mesh} (geom ${geom}) has face index ${vertex} outside its ${vertCount} vertices; recompile the model`)
    }
    index[k] = vertex
  }
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new BufferAttribute(positions, 3))
  geometry.setIndex(new BufferAttribute(index, 1))
  geometry.computeVertexNormals()
  return geometry
}
