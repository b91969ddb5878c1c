// Scores the world after every recorded call of one sample with the official scorer (the path of the final
// score), reusing the ground truth, the compiled model and each distinct state's score; writes nothing.
import { loadEvaluation, readEpisode, type BenchmarkPackage, type PackageSample } from '../../package/index.ts'
import { bytesToBase64 } from '../../shared/base64.ts'
import type { BodyPose } from '../../world/index.ts'
import { describeError, scoredFields } from '../rows/index.ts'
import type { SampleScorer, ScoringTiming } from '../scorer/create-scorer.ts'
import { scoringInput } from '../scorer/scoring-input.ts'
import { curveFigures, type CurveFigures } from './curve-figures.ts'
import { readStepScenes } from './step-scenes.ts'

/** One row of `steps`: the world right after one recorded call, scored. */
export interface CurveStep {
  /** `calls.jsonl` index of the call in the final episode. */
  call_index: number
  tool: string
  call_status: 'completed' | 'error'
  /** Seconds since the first recorded call started (call timestamps). */
  elapsed_seconds: number
  state_index: number
  status: 'scored' | 'error'
  /** Why the state could not be scored (`status` error only). */
  error: string | null
  SCD: number | null
  PA: number
  SR: number
  parts_correct: number
  parts_total: number
}

/** What the viewer needs of a scored state: per part correctness and the alignment that was applied. */
export interface StateDetail {
  state_index: number
  /** Per part in `part_ids` order. */
  correct: boolean[]
  target_part_ids: string[]
  /** Row-major 3×3 and translation (scaled coordinates) mapping the prediction onto the ground truth (§6.5). */
  rotation: number[][] | null
  translation: number[] | null
}

export interface SampleCurve {
  block: string
  sample_id: string
  part_ids: string[]
  scale_divisor: number
  steps: CurveStep[]
  figures: CurveFigures
  states: StateDetail[]
  final_state_index: number
  episode_sha256: string
  /** Scoring cost: states actually scored (distinct part poses) and the seconds spent on them (pose reading excluded). */
  cost: { states_scored: number; scoring_seconds: number; total_seconds: number }
}

export interface ScoreSampleCurveInput {
  pkg: BenchmarkPackage
  sample: PackageSample
  finalBytes: Uint8Array
  finalSource: string
  scorer: SampleScorer
}

interface StateScore {
  status: 'scored' | 'error'
  error: string | null
  SCD: number | null
  PA: number
  SR: number
  detail: StateDetail
}

/**
 * The sample's curve: one step per recorded call, each the official score of the state the call ended in.
 * Throws when the final episode itself is unscorable (the sample's official row is then an error row too);
 * a state that fails to score becomes an error step (SCD null, PA 0, SR 0), as an error row would.
 */
export async function scoreSampleCurve(input: ScoreSampleCurveInput): Promise<SampleCurve> {
  const started = performance.now()
  const { pkg, sample, scorer } = input
  const evaluation = await loadEvaluation(pkg, sample)
  const initialBytes = await readEpisode(pkg, sample)
  const scenes = await readStepScenes({ finalBytes: input.finalBytes, initialBytes, partIds: evaluation.partIds, finalSource: input.finalSource, initialSource: sample.episodePath })
  const scores = new Map<number, StateScore>()
  const timings: ScoringTiming[] = []
  const scoreState = async (stateIndex: number, poses: BodyPose[]): Promise<StateScore> => {
    const timing: ScoringTiming = { queueMs: 0, computeMs: 0 }
    timings.push(timing)
    try {
      const score = scoredFields(await scorer.score(scoringInput(evaluation, poses), { timing }), { includeCandidates: false })
      const byPart = new Map(score.parts.map(part => [part.part_id, part]))
      return {
        status: 'scored', error: null, SCD: score.SCD, PA: score.PA, SR: score.SR,
        detail: {
          state_index: stateIndex,
          correct: evaluation.partIds.map(id => byPart.get(id)?.correct ?? false),
          target_part_ids: evaluation.partIds.map(id => byPart.get(id)?.target_part_id ?? id),
          rotation: score.alignment.rotation,
          translation: score.alignment.translation,
        },
      }
    } catch (error) {
      return {
        status: 'error', error: describeError(error), SCD: null, PA: 0, SR: 0,
        detail: { state_index: stateIndex, correct: evaluation.partIds.map(() => false), target_part_ids: [...evaluation.partIds], rotation: null, translation: null },
      }
    }
  }
  // States in ascending order: each distinct state is scored once, however many read-only calls end in it, and a
  // state whose part poses are bit-identical to an earlier one (move_camera, group_objects, a pose set back)
  // reuses that score: the score is a function of the poses and the ground truth only. The distinct states are handed
  // to the scorer together, so a batching backend (the GPU one) scores all steps of the curve in one lockstep run; the
  // CPU pool queues them. Either way each state gets the same score as alone.
  const byPoses = new Map<string, Promise<StateScore>>()
  const ordered: { stateIndex: number; score: Promise<StateScore> }[] = []
  const clock = performance.now()
  for (const stateIndex of [...scenes.poses.keys()].sort((a, b) => a - b)) {
    const poses = scenes.poses.get(stateIndex)!
    const key = posesKey(poses)
    const earlier = byPoses.get(key)
    if (earlier !== undefined) {
      ordered.push({ stateIndex, score: earlier.then(score => ({ ...score, detail: { ...score.detail, state_index: stateIndex } })) })
      continue
    }
    const score = scoreState(stateIndex, poses)
    byPoses.set(key, score)
    ordered.push({ stateIndex, score })
  }
  const statesScored = byPoses.size
  for (const { stateIndex, score } of ordered) scores.set(stateIndex, await score)
  // A sample's states are queued together, so they run back to back; the wait before the first one (another sample
  // in flight, computeRunCurves) is not this sample's cost.
  const waitedMs = timings.length === 0 ? 0 : Math.min(...timings.map(timing => timing.queueMs))
  const scoringSeconds = (performance.now() - clock - waitedMs) / 1000
  const origin = scenes.calls.length === 0 ? 0 : Date.parse(scenes.calls[0]!.timestamp)
  const partsTotal = evaluation.partIds.length
  const steps = scenes.calls.map((call): CurveStep => {
    const score = scores.get(call.stateIndex)!
    return {
      call_index: call.index,
      tool: call.name,
      call_status: call.status,
      elapsed_seconds: (Date.parse(call.timestamp) - origin) / 1000,
      state_index: call.stateIndex,
      status: score.status,
      error: score.error,
      SCD: score.SCD,
      PA: score.PA,
      SR: score.SR,
      parts_correct: score.detail.correct.filter(Boolean).length,
      parts_total: partsTotal,
    }
  })
  return {
    block: sample.block,
    sample_id: sample.id,
    part_ids: [...evaluation.partIds],
    scale_divisor: evaluation.scaleDivisor,
    steps,
    figures: curveFigures(steps),
    states: [...scores.values()].map(score => score.detail),
    final_state_index: scenes.finalStateIndex,
    episode_sha256: scenes.episodeSha256,
    cost: { states_scored: statesScored, scoring_seconds: scoringSeconds, total_seconds: (performance.now() - started) / 1000 },
  }
}

/** The exact bits of every pose (rotation, then position, part by part): equal keys mean equal scoring inputs. */
function posesKey(poses: readonly BodyPose[]): string {
  const bits = new Float64Array(12 * poses.length)
  poses.forEach((pose, i) => {
    bits.set(pose.rotation, 12 * i)
    bits.set(pose.position, 12 * i + 9)
  })
  return bytesToBase64(new Uint8Array(bits.buffer))
}
