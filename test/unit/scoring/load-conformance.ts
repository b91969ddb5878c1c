// Test helper: reads the conformance vectors (test/fixtures/conformance, a copy of the reference vectors) and converts them to the scoring core's typed inputs.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { FinalPose, SampleInput } from '../../../src/scoring/index.ts'

const ROOT = fileURLToPath(new URL('../../fixtures/conformance/scoring/', import.meta.url))

/** Parsed JSON of a conformance file (relative to test/fixtures/conformance/scoring/). */
export function readVector(name: string): unknown {
  return JSON.parse(readFileSync(ROOT + name, 'utf8'))
}

/** Flattens a list of [x, y, z] rows into one Float64Array. */
export function flat(rows: readonly (readonly number[])[]): Float64Array {
  const out = new Float64Array(rows.length * 3)
  rows.forEach((r, i) => out.set(r, 3 * i))
  return out
}

export interface EvaluationLike {
  part_ids: string[]
  points: Record<string, number[][]>
  gt_poses: Record<string, number[]>
  scale_divisor: number
  equivalence: { groups: string[][] }
}

export type PosesFile = Record<string, { position: number[]; quaternion: number[] }>

/** Builds the scoring input from an evaluation.json-like object and a pose file. */
export function sampleFromEvaluation(evaluation: EvaluationLike, poses: PosesFile, toMatrix: (q: number[]) => Float64Array): SampleInput {
  const ids = evaluation.part_ids
  const finalPoses: FinalPose[] = ids.map(id => ({ rotation: toMatrix(poses[id]!.quaternion), position: poses[id]!.position }))
  return {
    partIds: ids,
    clouds: ids.map(id => flat(evaluation.points[id]!)),
    gtPoses: ids.map(id => evaluation.gt_poses[id]!),
    finalPoses,
    groups: evaluation.equivalence.groups,
    scaleDivisor: evaluation.scale_divisor,
  }
}
