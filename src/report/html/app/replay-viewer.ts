// The report's 3D replay (page code): three.js meshes of every part, posed at each recorded state, coloured by
// correctness, with the aligned ground truth as an overlay. No scoring, no file access: it draws embedded data.
import {
  AmbientLight, Box3, BoxGeometry, BufferAttribute, BufferGeometry, CapsuleGeometry, Color, CylinderGeometry, DirectionalLight,
  DoubleSide, Group, Matrix4, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene, SphereGeometry, Sphere, Vector3, WebGLRenderer,
} from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import type { PosesRow, ViewerGeom, ViewerScene } from '../scene-data.ts'
import { fitToFrame } from './fit-to-frame.ts'

const COLOR_CORRECT = 0x3fb950
const COLOR_WRONG = 0xf85149
const COLOR_GROUND_TRUTH = 0x58a6ff
const BACKGROUND = 0x181825
const MESH_GEOM = 7
/** MuJoCo cylinders and capsules run along +Z, three.js builds them along +Y. */
const Y_TO_Z_RAD = Math.PI / 2

export interface ReplayViewer {
  readonly stepCount: number
  /** Shows the state after step `index` (clamped) and redraws. */
  show(index: number): void
  setGroundTruth(visible: boolean): void
  /** World positions of every part body at the shown step (for tests and tooltips). */
  partPositions(): number[][]
  dispose(): void
}

/** `stateOfStep[k]` is the index into `scene.states` of step k. */
export function createReplayViewer(canvas: HTMLCanvasElement, scene: ViewerScene, stateOfStep: readonly number[]): ReplayViewer {
  // preserveDrawingBuffer keeps the last frame readable (tests check it is not blank).
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true })
  renderer.setPixelRatio(window.devicePixelRatio)
  const world = new Scene()
  world.background = new Color(BACKGROUND)
  world.add(new AmbientLight(0xffffff, 0.9))
  const sun = new DirectionalLight(0xffefd9, 2.2)
  sun.position.set(-1, -2, 5)
  world.add(sun)

  const partCount = scene.part_ids.length
  const parts = makeBodies(world, partCount)
  const truth = makeBodies(world, partCount)
  const partMaterials = scene.part_ids.map(() => new MeshStandardMaterial({ color: COLOR_WRONG, roughness: 0.7, side: DoubleSide }))
  const truthMaterial = new MeshStandardMaterial({ color: COLOR_GROUND_TRUTH, transparent: true, opacity: 0.35, depthWrite: false, side: DoubleSide })
  const geometries = scene.geoms.map(buildGeometry)
  scene.geoms.forEach((geom, g) => {
    if (geom.part < 0) return
    const local = localMatrix(geom)
    for (const [bodies, material] of [[parts, partMaterials[geom.part]!], [truth, truthMaterial]] as const) {
      const mesh = new Mesh(geometries[g]!, material)
      mesh.matrixAutoUpdate = false
      mesh.matrix.copy(local)
      bodies[geom.part]!.add(mesh)
    }
  })
  truth.forEach(body => { body.visible = false })

  // The aspect is set by the frame's size (fitToFrame below) before the first render.
  const camera = new PerspectiveCamera(38, 1, 0.01, 1000)
  camera.up.set(0, 0, 1)
  const controls = new OrbitControls(camera, canvas)
  let current = -1
  let showTruth = false

  const render = () => renderer.render(world, camera)
  controls.addEventListener('change', render)

  const place = (bodies: Group[], rows: readonly PosesRow[] | null) => {
    bodies.forEach((body, i) => {
      const row = rows?.[i]
      if (row === undefined) return
      body.matrix.set(row[0]!, row[1]!, row[2]!, row[9]!, row[3]!, row[4]!, row[5]!, row[10]!, row[6]!, row[7]!, row[8]!, row[11]!, 0, 0, 0, 1)
      body.matrixWorldNeedsUpdate = true
    })
  }

  const show = (index: number) => {
    const step = Math.max(0, Math.min(stateOfStep.length - 1, index))
    const state = scene.states[stateOfStep[step] ?? -1] ?? scene.states.at(-1)
    if (state === undefined) return
    current = step
    place(parts, state.poses)
    place(truth, state.ground_truth)
    state.correct.forEach((ok, i) => partMaterials[i]!.color.setHex(ok ? COLOR_CORRECT : COLOR_WRONG))
    truth.forEach(body => { body.visible = showTruth && state.ground_truth !== null })
    render()
  }

  frame(camera, controls, world, parts, scene)
  // The drawing buffer follows the size the page gives the canvas (CSS: the whole frame), so the scene fills it
  // undistorted at any window width; `false`: the canvas's CSS size stays the page's.
  const stopFitting = fitToFrame(canvas, ({ width, height }) => {
    renderer.setSize(width, height, false)
    camera.aspect = width / height
    camera.updateProjectionMatrix()
    if (current >= 0) render()
  })
  show(stateOfStep.length - 1)

  return {
    get stepCount() { return stateOfStep.length },
    show,
    setGroundTruth(visible) {
      showTruth = visible
      show(current)
    },
    partPositions: () => parts.map(body => [body.matrix.elements[12]!, body.matrix.elements[13]!, body.matrix.elements[14]!]),
    dispose() {
      stopFitting()
      controls.dispose()
      geometries.forEach(geometry => geometry.dispose())
      partMaterials.forEach(material => material.dispose())
      truthMaterial.dispose()
      renderer.dispose()
    },
  }
}

function makeBodies(world: Scene, count: number): Group[] {
  return Array.from({ length: count }, () => {
    const body = new Group()
    body.matrixAutoUpdate = false
    world.add(body)
    return body
  })
}

/** Aims the camera at every part over all states, from the capture camera's usual side (−Y, above). */
function frame(camera: PerspectiveCamera, controls: OrbitControls, world: Scene, parts: Group[], scene: ViewerScene): void {
  const box = new Box3()
  const point = new Vector3()
  for (const state of scene.states) for (const row of state.poses) box.expandByPoint(point.set(row[9]!, row[10]!, row[11]!))
  world.updateMatrixWorld(true)
  for (const body of parts) box.expandByObject(body)
  const sphere = box.getBoundingSphere(new Sphere())
  const radius = Math.max(sphere.radius, 0.1)
  controls.target.copy(sphere.center)
  camera.position.copy(sphere.center).add(new Vector3(0.6, -2.2, 1.4).multiplyScalar(radius * 1.15))
  camera.near = radius / 100
  camera.far = radius * 100
  camera.updateProjectionMatrix()
  controls.update()
}

function localMatrix(geom: ViewerGeom): Matrix4 {
  const r = geom.rotation
  const p = geom.position
  return new Matrix4().set(r[0]!, r[1]!, r[2]!, p[0]!, r[3]!, r[4]!, r[5]!, p[1]!, r[6]!, r[7]!, r[8]!, p[2]!, 0, 0, 0, 1)
}

/** The geom's geometry in its own frame: meshes from the model's vertices, analytic shapes as the captures draw them. */
function buildGeometry(geom: ViewerGeom): BufferGeometry {
  const [x = 0, y = 0, z = 0] = geom.size
  if (geom.type === MESH_GEOM && geom.vertices !== null && geom.faces !== null) {
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new BufferAttribute(Float32Array.from(geom.vertices), 3))
    geometry.setIndex(new BufferAttribute(Uint32Array.from(geom.faces), 1))
    geometry.computeVertexNormals()
    return geometry
  }
  switch (geom.type) {
    case 2: return new SphereGeometry(x, 32, 20)
    case 3: return new CapsuleGeometry(x, 2 * y, 8, 24).rotateX(Y_TO_Z_RAD)
    case 4: return new SphereGeometry(1, 32, 20).scale(x, y, z)
    case 5: return new CylinderGeometry(x, x, 2 * y, 32).rotateX(Y_TO_Z_RAD)
    default: return new BoxGeometry(2 * x, 2 * y, 2 * z)
  }
}
