// Scoring inputs from an evaluation.json with every part moved off its ground-truth pose by a seeded random amount;
// for tests and benchmarks of the scoring backends.
import { readFileSync } from 'node:fs'
import { quaternionToMatrix, type SampleInput } from '../../src/scoring/index.ts'
import { mulberry32 } from '../../src/shared/mulberry32.ts'
import { sampleFromEvaluation, type EvaluationLike, type PosesFile } from '../unit/scoring/load-conformance.ts'

const q = (w: number[]) => quaternionToMatrix(new Float64Array(9), w)

/** Hamilton product a·b of [w, x, y, z] quaternions. */
function multiply(a: number[], b: number[]): number[] {
  const [aw, ax, ay, az] = a as [number, number, number, number], [bw, bx, by, bz] = b as [number, number, number, number]
  return [aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw]
}

/**
 * The sample's ground-truth poses with each part moved by a seeded random turn (up to `turn` rad) and shift (up to
 * `shift`): from near-perfect assemblies (SR 1) to scrambled ones (long ICP runs, many near-ties).
 */
export function perturbedSample(evaluation: EvaluationLike, seed: number, turn: number, shift: number): SampleInput {
  const random = mulberry32(seed)
  const poses: PosesFile = {}
  for (const id of evaluation.part_ids) {
    const gt = evaluation.gt_poses[id]!
    const axis = [random() - 0.5, random() - 0.5, random() - 0.5]
    const norm = Math.hypot(...axis) || 1
    const half = (turn * random()) / 2
    const delta = [Math.cos(half), ...axis.map(c => (Math.sin(half) * c) / norm)]
    poses[id] = {
      position: [0, 1, 2].map(k => gt[k]! + shift * (2 * random() - 1)),
      quaternion: multiply(delta, [gt[3]!, gt[4]!, gt[5]!, gt[6]!]),
    }
  }
  return sampleFromEvaluation(evaluation, poses, q)
}

export function readEvaluation(path: string): EvaluationLike {
  return JSON.parse(readFileSync(path, 'utf8')) as EvaluationLike
}
