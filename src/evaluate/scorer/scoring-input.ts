// The one mapping from a sample's ground truth (evaluation.json, parsed) and final poses to the scorer's input; no I/O.
import type { Evaluation } from '../../package/index.ts'
import type { FinalPose, SampleInput } from '../../scoring/index.ts'

/** The scorer's input for `finalPoses` (one per part, in `evaluation.partIds` order) against `evaluation`. */
export function scoringInput(evaluation: Evaluation, finalPoses: readonly FinalPose[]): SampleInput {
  return {
    partIds: evaluation.partIds,
    clouds: evaluation.points,
    gtPoses: evaluation.gtPoses,
    finalPoses,
    groups: evaluation.groups,
    scaleDivisor: evaluation.scaleDivisor,
  }
}
