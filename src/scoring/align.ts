// Global alignment of a whole prediction to its target (scoring.md §6): starts, ICP per start, the strict-< winner; no matching.
// Convention: rotations are row-major Float64Array(9); the alignment maps prediction points p to R·p + t.
import { IcpContext, type StartResult } from './icp.ts'
import { mat3ToRows } from './mat3.ts'
import type { IcpKernel } from './objective.ts'
import { pcaFrame } from './pca.ts'
import { pcaStarts, type AlignmentStart } from './starts.ts'

/** One start's summary in the alignment record (§6.5). */
export interface AlignmentCandidate {
  seed: string
  chamfer: number
  iterations: number
  converged: boolean
  rotation: number[][]
  translation: number[]
}

/** The alignment record of a scored row (§6.5), JSON-ready. */
export interface AlignmentRecord {
  rotation: number[][]
  translation: number[]
  chamfer: number
  seed: string
  best_iteration: number
  iterations: number
  converged: boolean
  candidates?: AlignmentCandidate[]
}

/**
 * The ordered starts for aligning `prediction` to `target` (flat xyz, equal length): the 24 PCA starts of §6.2,
 * then `partStarts` (already in part order, §6.3). Throws `SCORING_DEGENERATE_PART` when either cloud has no frame.
 */
export function alignmentStarts(prediction: ArrayLike<number>, target: ArrayLike<number>, partStarts: readonly AlignmentStart[] = []): AlignmentStart[] {
  const frameP = pcaFrame(prediction, 'prediction cloud')
  const frameT = pcaFrame(target, 'target cloud')
  return [...pcaStarts(frameP, frameT), ...partStarts]
}

/** Runs ICP for the given starts in this thread (one context, trees built once); `kernel` as in IcpContext. */
export function runStarts(prediction: ArrayLike<number>, target: ArrayLike<number>, starts: readonly AlignmentStart[], kernel: IcpKernel = 'cells'): StartResult[] {
  const context = new IcpContext(prediction, target, kernel)
  return starts.map(start => context.runStart(start))
}

/**
 * Index of the winning start (§6.5): strictly smallest best chamfer; ties go to the earliest start. Results must
 * be in start order, so the choice never depends on which thread ran which start.
 */
export function pickWinner(results: readonly StartResult[]): number {
  let winner = 0
  for (let i = 1; i < results.length; i++) {
    if (results[i]!.chamfer < results[winner]!.chamfer) winner = i
  }
  return winner
}

/** The JSON alignment record of `results[winner]`, with every candidate when `includeCandidates`. */
export function alignmentRecord(results: readonly StartResult[], winner: number, includeCandidates: boolean): AlignmentRecord {
  const best = results[winner]!
  const record: AlignmentRecord = {
    rotation: mat3ToRows(best.rotation),
    translation: Array.from(best.translation),
    chamfer: best.chamfer,
    seed: best.seed,
    best_iteration: best.bestIteration,
    iterations: best.iterations,
    converged: best.converged,
  }
  if (includeCandidates) {
    record.candidates = results.map(r => ({
      seed: r.seed,
      chamfer: r.chamfer,
      iterations: r.iterations,
      converged: r.converged,
      rotation: mat3ToRows(r.rotation),
      translation: Array.from(r.translation),
    }))
  }
  return record
}

/** Aligns in this thread: starts, ICP from each, winner. Returns every start's result and the winner's index. */
export function alignClouds(
  prediction: ArrayLike<number>, target: ArrayLike<number>, partStarts: readonly AlignmentStart[] = [],
): { results: StartResult[]; winner: number } {
  const starts = alignmentStarts(prediction, target, partStarts)
  const results = runStarts(prediction, target, starts)
  return { results, winner: pickWinner(results) }
}

/** Writes p·Rᵀ + t for every point of the flat xyz `cloud` into `out` (may alias `cloud`). */
export function applyTransform(out: Float64Array, cloud: ArrayLike<number>, rotation: ArrayLike<number>, translation: ArrayLike<number>): Float64Array {
  const r0 = rotation[0]!, r1 = rotation[1]!, r2 = rotation[2]!, r3 = rotation[3]!, r4 = rotation[4]!
  const r5 = rotation[5]!, r6 = rotation[6]!, r7 = rotation[7]!, r8 = rotation[8]!
  const t0 = translation[0]!, t1 = translation[1]!, t2 = translation[2]!
  for (let i = 0; i < cloud.length; i += 3) {
    const x = cloud[i]!, y = cloud[i + 1]!, z = cloud[i + 2]!
    out[i] = r0 * x + r1 * y + r2 * z + t0
    out[i + 1] = r3 * x + r4 * y + r5 * z + t1
    out[i + 2] = r6 * x + r7 * y + r8 * z + t2
  }
  return out
}
