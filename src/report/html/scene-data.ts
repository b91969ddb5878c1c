// Node only: the replay data of one sample's 3D viewer — geometry of every geom in its body's frame, part poses
// after every committed state, and the ground truth placed by each state's alignment. No drawing, no scoring.
import { compileEpisodeModel, loadMujoco } from '../../world/index.ts'
import { expectedObjects } from '../../evaluate/index.ts'
import { framesByIndex, type SampleCurve } from '../../evaluate/curves/index.ts'
import type { Episode } from '../../episode/index.ts'
import type { Evaluation } from '../../package/index.ts'
import { quaternionToMatrix } from '../../scoring/index.ts'
import { ReportError } from '../errors.ts'

/** One geom: its part, its geometry and its fixed placement in the part's body frame. */
export interface ViewerGeom {
  /** Index into `part_ids`, or -1 for a geom not on a part body. */
  part: number
  /** MuJoCo `mjtGeom` value (7 = mesh). */
  type: number
  /** `geom_size` (3 numbers). */
  size: number[]
  rgba: number[]
  /** Mesh geoms: vertices (flat xyz, geom frame) and triangle indices. */
  vertices: number[] | null
  faces: number[] | null
  /** Placement in the body frame: row-major 3×3 and translation. */
  rotation: number[]
  position: number[]
}

/** A part body's world pose: row-major 3×3 `rotation` and `position`, 12 numbers per part as [R, p]. */
export type PosesRow = number[]

export interface ViewerState {
  state_index: number
  /** Per part, 12 numbers: row-major rotation (9) then position (3). */
  poses: PosesRow[]
  /** Per part: the ground truth mapped into the scene by this state's alignment; null when unscored. */
  ground_truth: PosesRow[] | null
  correct: boolean[]
}

export interface ViewerScene {
  part_ids: string[]
  geoms: ViewerGeom[]
  states: ViewerState[]
}

/** Rounds to float32-ish precision: the viewer draws, it does not score, and the page stays small. */
const DIGITS = 7
const round = (value: number) => Number(value.toPrecision(DIGITS))

/**
 * Builds the viewer data from the decoded final episode, the sample's ground truth and its curve (which
 * holds each state's alignment and per-part correctness). The model is compiled once; each state is one
 * `mj_setState` + `mj_forward`.
 */
export async function buildViewerScene(episode: Episode, evaluation: Evaluation, curve: Pick<SampleCurve, 'states' | 'scale_divisor'>): Promise<ViewerScene> {
  const mujoco = await loadMujoco()
  const model = compileEpisodeModel(mujoco, episode, 'final.episode.zip')
  const data = new mujoco.MjData(model)
  try {
    const bodies = expectedObjects(evaluation.partIds).map(object => mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY.value, object.id))
    const frames = framesByIndex(episode)
    const forward = (integration: Float64Array) => {
      // The binding is typed `number[]` but copies any array-like of numbers (as in world/body-poses.ts).
      mujoco.mj_setState(model, data, integration as unknown as number[], episode.manifest.stateSpec)
      mujoco.mj_forward(model, data)
    }
    forward(episode.initial.integration)
    const geoms = readGeoms(model, data, bodies)
    const gt = evaluation.gtPoses.map(pose => {
      const rotation = new Float64Array(9)
      quaternionToMatrix(rotation, pose, 3, 'ground truth')
      return { rotation, position: [pose[0]!, pose[1]!, pose[2]!] }
    })
    const states = curve.states.map((detail): ViewerState => {
      const frame = frames.get(detail.state_index)
      if (frame === undefined) throw new ReportError('REPORT_INPUT_INVALID', `state ${detail.state_index} of the curve is not in the episode; recompute the curves with \`awb curves\``)
      forward(frame.integration)
      const xpos = data.xpos as Float64Array
      const xmat = data.xmat as Float64Array
      const poses = bodies.map(body => [...xmat.subarray(9 * body, 9 * body + 9), ...xpos.subarray(3 * body, 3 * body + 3)].map(round))
      return { state_index: detail.state_index, poses, ground_truth: groundTruthInScene(gt, detail, curve.scale_divisor), correct: detail.correct }
    })
    return { part_ids: [...evaluation.partIds], geoms, states }
  } finally {
    data.delete()
    model.delete()
  }
}

/**
 * The alignment maps scaled prediction points x onto the ground truth: x_gt = R x + t (scoring.md §6.5), with
 * lengths divided by the scale divisor d. Its inverse puts the ground truth into the scene: a GT body pose
 * (Rg, pg) becomes (Rᵀ Rg, Rᵀ pg − d Rᵀ t).
 */
function groundTruthInScene(gt: { rotation: Float64Array; position: number[] }[], detail: SampleCurve['states'][number], d: number): PosesRow[] | null {
  const { rotation, translation } = detail
  if (rotation === null || translation === null) return null
  const r = rotation
  return gt.map(({ rotation: g, position: p }) => {
    const out: number[] = []
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out.push(r[0]![i]! * g[j]! + r[1]![i]! * g[3 + j]! + r[2]![i]! * g[6 + j]!)
    for (let i = 0; i < 3; i++) out.push(r[0]![i]! * (p[0]! - d * translation[0]!) + r[1]![i]! * (p[1]! - d * translation[1]!) + r[2]![i]! * (p[2]! - d * translation[2]!))
    return out.map(round)
  })
}

type Model = ReturnType<typeof compileEpisodeModel>
type Data = InstanceType<Awaited<ReturnType<typeof loadMujoco>>['MjData']>

/** Every geom with its geometry and its pose relative to its body, read at the current state of `data`. */
function readGeoms(model: Model, data: Data, bodies: readonly number[]): ViewerGeom[] {
  const geomBody = model.geom_bodyid as Int32Array
  const types = model.geom_type as Int32Array
  const sizes = model.geom_size as Float64Array
  const rgba = model.geom_rgba as Float32Array
  const dataIds = model.geom_dataid as Int32Array
  const xpos = data.xpos as Float64Array
  const xmat = data.xmat as Float64Array
  const gpos = data.geom_xpos as Float64Array
  const gmat = data.geom_xmat as Float64Array
  const geoms: ViewerGeom[] = []
  for (let g = 0; g < model.ngeom; g++) {
    const body = geomBody[g]!
    const b = xmat.subarray(9 * body, 9 * body + 9)
    const m = gmat.subarray(9 * g, 9 * g + 9)
    // Body-frame placement: Bᵀ M and Bᵀ (p_geom − p_body).
    const rotation: number[] = []
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) rotation.push(b[i]! * m[j]! + b[3 + i]! * m[3 + j]! + b[6 + i]! * m[6 + j]!)
    const dp = [0, 1, 2].map(k => gpos[3 * g + k]! - xpos[3 * body + k]!)
    const position = [0, 1, 2].map(i => b[i]! * dp[0]! + b[3 + i]! * dp[1]! + b[6 + i]! * dp[2]!)
    const mesh = types[g] === 7 ? dataIds[g]! : -1
    let vertices: number[] | null = null
    let faces: number[] | null = null
    if (mesh >= 0) {
      const v0 = (model.mesh_vertadr as Int32Array)[mesh]!
      const vn = (model.mesh_vertnum as Int32Array)[mesh]!
      const f0 = (model.mesh_faceadr as Int32Array)[mesh]!
      const fn = (model.mesh_facenum as Int32Array)[mesh]!
      vertices = Array.from((model.mesh_vert as Float32Array).subarray(3 * v0, 3 * (v0 + vn)), round)
      faces = Array.from((model.mesh_face as Int32Array).subarray(3 * f0, 3 * (f0 + fn)))
    }
    geoms.push({
      part: bodies.indexOf(body),
      type: types[g]!,
      size: Array.from(sizes.subarray(3 * g, 3 * g + 3), round),
      rgba: Array.from(rgba.subarray(4 * g, 4 * g + 4), round),
      vertices,
      faces,
      rotation: rotation.map(round),
      position: position.map(round),
    })
  }
  return geoms
}
