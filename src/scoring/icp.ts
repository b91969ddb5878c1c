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
 * What a start did after its first fit, kept so that a later start of the same sample whose first fit lands on the
 * very same transform (bit for bit) need not repeat it (see IcpContext.runStart). Transforms are in the centred frames.
 */
interface Trajectory {
  /** f at iteration 1. */
  f1: number
  /** The iteration it stopped at, and whether it converged there (both decided by f1, f2, … once past iteration 1). */
  iterations: number
  converged: boolean
  /** Smallest f over iterations ≥ 1, its first iteration and transform. */
  bestF: number
  bestIteration: number
  bestRot: Float64Array
  bestTrans: Float64Array
}

/** The bits of a transform (row-major R, then t) as a map key. */
const _stateBits = new Float64Array(12)
const _stateWords = new BigUint64Array(_stateBits.buffer)
function stateKey(rot: Float64Array, trans: Float64Array): string {
  _stateBits.set(rot)
  _stateBits.set(trans, 9)
  return _stateWords.join(',')
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
  /** Trajectories of this context's finished starts, by the bits of their transform after the first fit. */
  private readonly trajectories = new Map<string, Trajectory>()
  /** Starts `runStart` finished from an earlier start's trajectory (for tests and benchmarks). */
  trajectoriesReused = 0

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

  /**
   * Runs ICP from `start` and returns its best-encountered transform: the result of the loop in `startSteps`, bit for
   * bit, whatever ran before (hints reset).
   *
   * Shortcut: when the first fit lands on a transform (bits) an earlier start of this context also reached after its
   * first fit, the rest is that start's. Proof: from a transform on, the loop's next values depend on the pairs each
   * evaluation finds and on nothing else carried over, except in an exact tie, where the KD search keeps the warm hint
   * (the start's own history). Certificates and cell walks only ever return the unique nearest point. So if none of
   * the earlier start's evaluations from iteration 1 on met a tie (objective.takeTies), this start's f1, f2, … and
   * transforms are the earlier one's. Only its own f0 differs, which decides iteration 1's stop test and whether
   * iteration 0 stays its best (strict <); from iteration 2 on, the stop tests compare the shared values. Both starts
   * count iterations from their own start, so they share the cap too. (Part starts of parts placed by one common
   * motion typically meet this way; the chair's "displaced" poses: 4 of its 6 part starts.)
   */
  runStart(start: AlignmentStart): StartResult {
    const objective = this.objective
    objective.reset()
    const steps = this.startSteps(start)
    let step = steps.next()
    if (step.done === true) return step.value
    const startRot = Float64Array.from(step.value.rot)
    const startTrans = Float64Array.from(step.value.trans)
    const f0 = objective.evaluate(step.value.rot, step.value.trans, step.value.sums)
    step = steps.next(f0)
    if (step.done === true) return step.value
    const key = stateKey(step.value.rot, step.value.trans)
    const known = this.trajectories.get(key)
    if (known !== undefined) {
      const improvement = f0 - known.f1
      const stopsAtOne = !(improvement >= ICP_IMPROVEMENT_TOLERANCE)
      // The known start stopped at iteration 1 (its own f0): nothing recorded past it, so run on.
      if (stopsAtOne || known.iterations > 1) {
        // The generator is left unfinished: it holds no resources.
        this.trajectoriesReused++
        const result: StartResult = {
          seed: start.name, chamfer: f0, rotation: startRot, translation: this.uncentredTranslation(startRot, startTrans), bestIteration: 0,
          iterations: stopsAtOne ? 1 : known.iterations,
          converged: stopsAtOne ? improvement >= -ICP_CONVERGED_TOLERANCE : known.converged,
        }
        // Iteration 0 stays the best unless a later f is strictly smaller (the loop's strict <).
        if (stopsAtOne && known.f1 < f0) {
          Object.assign(result, { chamfer: known.f1, rotation: Float64Array.from(step.value.rot), translation: this.uncentredTranslation(step.value.rot, step.value.trans), bestIteration: 1 })
        } else if (!stopsAtOne && known.bestF < f0) {
          Object.assign(result, { chamfer: known.bestF, rotation: Float64Array.from(known.bestRot), translation: this.uncentredTranslation(known.bestRot, known.bestTrans), bestIteration: known.bestIteration })
        }
        return result
      }
    }
    objective.takeTies()
    const record: Trajectory = { f1: NaN, iterations: 0, converged: false, bestF: Infinity, bestIteration: 0, bestRot: new Float64Array(9), bestTrans: new Float64Array(3) }
    for (let k = 1; step.done !== true; k++) {
      const { rot, trans, sums } = step.value
      const f = objective.evaluate(rot, trans, sums)
      if (k === 1) record.f1 = f
      if (f < record.bestF) {
        record.bestF = f
        record.bestIteration = k
        record.bestRot.set(rot)
        record.bestTrans.set(trans)
      }
      step = steps.next(f)
    }
    // A record that stopped at iteration 1 tells later starts less than this one.
    if (objective.takeTies() === 0 && (known === undefined || known.iterations === 1)) {
      record.iterations = step.value.iterations
      record.converged = step.value.converged
      this.trajectories.set(key, record)
    }
    return step.value
  }

  /** t of the uncentred transform from (R, t') between the centred frames: t = t' + c_T − R·c_P (§6.4's output). */
  private uncentredTranslation(rot: Float64Array, trans: Float64Array): Float64Array {
    const cP = this.centerP, cT = this.centerT
    const translation = new Float64Array(3)
    for (let r = 0; r < 3; r++) {
      translation[r] = trans[r]! + cT[r]! - (rot[3 * r]! * cP[0]! + rot[3 * r + 1]! * cP[1]! + rot[3 * r + 2]! * cP[2]!)
    }
    return translation
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
    return { seed: start.name, chamfer: bestF, rotation: bestRot, translation: this.uncentredTranslation(bestRot, bestTrans), bestIteration, iterations, converged }
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
