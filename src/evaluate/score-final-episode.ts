// Scores one saved final episode of a package sample (checks, MuJoCo poses, alignment); the shared core of
// `awb eval` and the Vitest harness. Reads package files; writes nothing.
import { loadEvaluation, readEpisode, type BenchmarkPackage, type EvaluationProtocol, type PackageSample } from '../package/index.ts'
import { readFinalScene } from './final-scene.ts'
import { scoredFields, type ScoredFields } from './rows/index.ts'
import type { SampleScorer, ScoringTiming } from './scorer/create-scorer.ts'
import { scoringInput } from './scorer/scoring-input.ts'

/**
 * The protocol marker every output of this harness carries (scoring.md §1): the published name of the protocol whose
 * names `EVALUATION_PROTOCOLS` (src/package/protocol-constants.ts) lists. The one definition: rows, summaries, the report.
 */
export const OUTPUT_PROTOCOL = 'assembly-evaluation-v1' satisfies EvaluationProtocol

export interface ScoreFinalEpisodeInput {
  pkg: BenchmarkPackage
  sample: PackageSample
  finalBytes: Uint8Array
  /** Names the final archive in error messages. */
  finalSource: string
  scorer: SampleScorer
  /** Receives the scorer's queue and compute times of this sample (see SampleScorer.score). */
  timing?: ScoringTiming
}

/**
 * Re-verifies the ground truth and the initial episode against the package, checks the final episode
 * against the initial one, restores its latest state and scores it. Throws on anything unscorable.
 */
export async function scoreFinalEpisode(input: ScoreFinalEpisodeInput): Promise<ScoredFields> {
  const { pkg, sample } = input
  const evaluation = await loadEvaluation(pkg, sample)
  const initialBytes = await readEpisode(pkg, sample)
  const scene = await readFinalScene({ finalBytes: input.finalBytes, initialBytes, partIds: evaluation.partIds, finalSource: input.finalSource, initialSource: sample.episodePath })
  const score = await input.scorer.score(scoringInput(evaluation, scene.poses), input.timing === undefined ? {} : { timing: input.timing })
  const { status, SCD, PA, SR, parts, alignment, scale_divisor } = scoredFields(score, { includeCandidates: true })
  return {
    status, SCD, PA, SR,
    protocol_version: OUTPUT_PROTOCOL,
    ...(pkg.protocol === OUTPUT_PROTOCOL ? {} : { input_protocol: pkg.protocol }),
    episode_sha256: scene.episodeSha256,
    state_index: scene.stateIndex,
    parts,
    alignment,
    scale_divisor,
  }
}
