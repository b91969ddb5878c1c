// Symmetric point-to-point ICP from one start (scoring.md §6.1, §6.4) over two static KD-trees; no start generation, no winner choice.
// Convention: rotations are row-major Float64Array(9); a transform maps prediction points p to R·p + t.
import type { VoronoiCells } from './cells.ts'
import { buildVoronoiCellsWasm } from './cells-wasm.ts'
import { KdTree } from './kd-tree.ts'
import { kabschRotationFromCovariance } from './kabsch.ts'
import { JsObjective, type IcpKernel, type IcpObjective } from './objective.ts'
import { WasmObjective } from './objective-wasm.ts'
import type { AlignmentStart } from './starts.ts'

/** Iteration cap of one start (§6.4). */
export const ICP_MAX_ITERATIONS = 100
/** A start stops once the objective improves by less than this (negative improvements included) (§6.4). */
export const ICP_IMPROVEMENT_TOLERANCE = 1e-9
/** A stopped start counts as converged when its last improvement is at least −this (§6.4). */
export const ICP_CONVERGED_TOLERANCE = 1e-12

/**
 * One objective evaluation a start asks for: the transform (row-major R, t, centred frames) and where the evaluator
 * writes the Kabsch sums of the 2N pairs it found: Σs (3), Σq (3), Σ s qᵀ (9, row-major).
 */
export interface IcpEvaluation {
  rot: Float64Array
  trans: Float64Array
  sums: Float64Array
}

/** The outcome of one start: its best-ever transform (§6.4 step 4) and its run statistics. */
export interface StartResult {
  /** Start name (`pca-k` / `part-k`). */
  seed: string
  /** Best objective value f reached (strict < keeps the earliest iteration). */
  chamfer: number
  rotation: Float64Array
  translation: Float64Array
  /** Iteration at which `chamfer` was reached (0 = the start itself). */
  bestIteration: number
  iterations: number
  converged: boolean
}

/**
 * Everything ICP needs for one (prediction, target) pair, built once per sample (per worker): both clouds
 * centred on their centroids (for accuracy), a KD-tree on each and, for the `cells` kernel, their Voronoi cells.
 * `runStart` allocates only its result and a few per-start buffers.
 */
export class IcpContext {
  /** Points per cloud. */
  readonly size: number
  /** KD-tree over the centred prediction (cells refer to its positions). */
  readonly treeP: KdTree
  /** KD-tree over the centred target. */
  readonly treeT: KdTree
  private readonly centerP: Float64Array
  private readonly centerT: Float64Array
  private readonly kernel: IcpKernel
  private cells: readonly [VoronoiCells, VoronoiCells] | undefined
  private objectiveInstance: IcpObjective | undefined

  /**
   * `prediction` and `target` are flat xyz arrays of equal length (validated by the caller). `kernel` picks the
   * objective's implementation; all give bit-identical results. The objective is made on the first `runStart`, so a
   * worker pool can build the cells first (a cell builder over `treeP` / `treeT`) and hand them over with `useCells`;
   * otherwise the `cells` kernel builds them in this thread.
   */
  constructor(prediction: ArrayLike<number>, target: ArrayLike<number>, kernel: IcpKernel = 'cells') {
    const n = prediction.length / 3
    this.size = n
    this.centerP = centroid(prediction)
    this.centerT = centroid(target)
    this.treeP = new KdTree(shifted(prediction, this.centerP))
    this.treeT = new KdTree(shifted(target, this.centerT))
    this.kernel = kernel
  }

  /** Prebuilt cells [of treeP, of treeT] for the `cells` kernel; only before the first `runStart`. */
  useCells(cells: readonly [VoronoiCells, VoronoiCells]): void {
    if (this.kernel !== 'cells') throw new Error(`IcpContext.useCells: the ${this.kernel} kernel takes no cells`)
    if (this.objectiveInstance !== undefined) throw new Error('IcpContext.useCells: the objective already exists')
    this.cells = cells
  }

  private get objective(): IcpObjective {
    if (this.objectiveInstance === undefined) {
      const { treeP, treeT } = this
      if (this.kernel === 'js') this.objectiveInstance = new JsObjective(treeP, treeT)
      else if (this.kernel === 'wasm') this.objectiveInstance = new WasmObjective(treeP, treeT)
      else this.objectiveInstance = new WasmObjective(treeP, treeT, this.cells ?? [buildVoronoiCellsWasm(treeP), buildVoronoiCellsWasm(treeT)])
    }
    return this.objectiveInstance
  }

  /** Runs ICP from `start` and returns its best-encountered transform. Independent of previous calls (hints reset). */
  runStart(start: AlignmentStart): StartResult {
    const objective = this.objective
    objective.reset()
    const steps = this.startSteps(start)
    let step = steps.next()
    while (step.done !== true) {
      const { rot, trans, sums } = step.value
      step = steps.next(objective.evaluate(rot, trans, sums))
    }
    return step.value
  }

  /**
   * The ICP loop of one start (§6.4) with the objective left to the caller: yields each transform to evaluate (in the
   * centred frames of treeP / treeT) and is resumed with f after the caller wrote the Kabsch sums of that evaluation
   * into `sums`; returns the start's result. `runStart` drives it with this context's objective; the GPU backend
   * drives the steps of every start of a sample in lockstep, so both run the very same loop (same bits).
   * Buffers are per call, so any number of these may be in progress at once.
   */
  *startSteps(start: AlignmentStart): Generator<IcpEvaluation, StartResult, number> {
    const rot = Float64Array.from(start.rotation)
    const trans = new Float64Array(3)
    const request: IcpEvaluation = { rot, trans, sums: new Float64Array(15) }
    const h = new Float64Array(9)
    // Internal translation between the centred frames: t' = R·c_P + t − c_T.
    const cP = this.centerP, cT = this.centerT
    for (let r = 0; r < 3; r++) {
      trans[r] = rot[3 * r]! * cP[0]! + rot[3 * r + 1]! * cP[1]! + rot[3 * r + 2]! * cP[2]! + start.translation[r]! - cT[r]!
    }
    let f = yield request
    let bestF = f
    const bestRot = Float64Array.from(rot)
    const bestTrans = Float64Array.from(trans)
    let bestIteration = 0
    let prev = f
    let iterations = ICP_MAX_ITERATIONS
    let converged = false
    for (let k = 1; k <= ICP_MAX_ITERATIONS; k++) {
      fitFromSums(rot, trans, h, request.sums, 2 * this.size)
      f = yield request
      if (f < bestF) {
        bestF = f
        bestRot.set(rot)
        bestTrans.set(trans)
        bestIteration = k
      }
      const improvement = prev - f
      prev = f
      if (!(improvement >= ICP_IMPROVEMENT_TOLERANCE)) {
        iterations = k
        converged = improvement >= -ICP_CONVERGED_TOLERANCE
        break
      }
    }
    const translation = new Float64Array(3)
    for (let r = 0; r < 3; r++) {
      translation[r] = bestTrans[r]! + cT[r]! - (bestRot[3 * r]! * cP[0]! + bestRot[3 * r + 1]! * cP[1]! + bestRot[3 * r + 2]! * cP[2]!)
    }
    return { seed: start.name, chamfer: bestF, rotation: bestRot, translation, bestIteration, iterations, converged }
  }
}

/** Kabsch over the 2N = `m` pairs of the last evaluation (§6.4 step 2.1–2.2), from the accumulated sums, into rot / trans. */
function fitFromSums(rot: Float64Array, trans: Float64Array, h: Float64Array, s: Float64Array, m: number): void {
  const sx = s[0]! / m, sy = s[1]! / m, sz = s[2]! / m
  const qx = s[3]! / m, qy = s[4]! / m, qz = s[5]! / m
  // Σ (s − s̄)(q − q̄)ᵀ = Σ s qᵀ − m s̄ q̄ᵀ; both clouds are centred, so the subtraction loses no digits.
  h[0] = s[6]! - m * sx * qx; h[1] = s[7]! - m * sx * qy; h[2] = s[8]! - m * sx * qz
  h[3] = s[9]! - m * sy * qx; h[4] = s[10]! - m * sy * qy; h[5] = s[11]! - m * sy * qz
  h[6] = s[12]! - m * sz * qx; h[7] = s[13]! - m * sz * qy; h[8] = s[14]! - m * sz * qz
  const r = kabschRotationFromCovariance(rot, h)
  trans[0] = qx - (r[0]! * sx + r[1]! * sy + r[2]! * sz)
  trans[1] = qy - (r[3]! * sx + r[4]! * sy + r[5]! * sz)
  trans[2] = qz - (r[6]! * sx + r[7]! * sy + r[8]! * sz)
}

function centroid(cloud: ArrayLike<number>): Float64Array {
  const n = cloud.length / 3
  let x = 0, y = 0, z = 0
  for (let i = 0; i < n; i++) {
    x += cloud[3 * i]!; y += cloud[3 * i + 1]!; z += cloud[3 * i + 2]!
  }
  return new Float64Array([x / n, y / n, z / n])
}

function shifted(cloud: ArrayLike<number>, c: Float64Array): Float64Array {
  const out = new Float64Array(cloud.length)
  const cx = c[0]!, cy = c[1]!, cz = c[2]!
  for (let i = 0; i < out.length; i += 3) {
    out[i] = cloud[i]! - cx
    out[i + 1] = cloud[i + 1]! - cy
    out[i + 2] = cloud[i + 2]! - cz
  }
  return out
}
