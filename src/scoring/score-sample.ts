// Scores one sample from plain typed data (scoring.md §4–§8) in this thread; no I/O, no worker threads (see workers/).
import { alignmentRecord, alignmentStarts, applyTransform, pickWinner, runStarts, type AlignmentRecord } from './align.ts'
import type { StartResult } from './icp.ts'
import { scoreParts, type PartRecord } from './metrics.ts'
import { prepareSample, type PrepareOptions, type PreparedSample, type SampleInput } from './prepare-sample.ts'
import type { AlignmentStart } from './starts.ts'

/** The official score fields of a scored row (§9.2), JSON-ready. */
export interface SampleScore {
  SCD: number
  PA: number
  SR: number
  parts: PartRecord[]
  alignment: AlignmentRecord
  scale_divisor: number
}

export interface ScoreOptions extends PrepareOptions {
  /** Include every start in `alignment.candidates` (default true, as the reference row does). */
  includeCandidates?: boolean
}

/** A validated sample plus its ordered starts: what the worker pool spreads over threads. */
export interface SamplePlan {
  prepared: PreparedSample
  starts: AlignmentStart[]
}

/** Validates the input and computes the (24 + n) starts. Throws `ScoringError` on any invalid input. */
export function planSample(input: SampleInput, options: PrepareOptions = {}): SamplePlan {
  const prepared = prepareSample(input, options)
  return { prepared, starts: alignmentStarts(prepared.prediction, prepared.target, prepared.partStarts) }
}

/** Winner, transform applied to every part, matching and metrics (§6.5, §7, §8), from the results in start order. */
export function finishSample(plan: SamplePlan, results: readonly StartResult[], options: ScoreOptions = {}): SampleScore {
  const { prepared } = plan
  const winner = pickWinner(results)
  const best = results[winner]!
  const aligned = prepared.predictionParts.map(part => applyTransform(new Float64Array(part.length), part, best.rotation, best.translation))
  const score = scoreParts(aligned, prepared.targetParts, prepared.groups, prepared.partIds, best.chamfer)
  return {
    SCD: score.SCD,
    PA: score.PA,
    SR: score.SR,
    parts: score.parts,
    alignment: alignmentRecord(results, winner, options.includeCandidates ?? true),
    scale_divisor: prepared.scaleDivisor,
  }
}

/** Scores one sample in this thread: validate, align from every start, match, metrics. */
export function scoreSample(input: SampleInput, options: ScoreOptions = {}): SampleScore {
  const plan = planSample(input, options)
  const results = runStarts(plan.prepared.prediction, plan.prepared.target, plan.starts)
  return finishSample(plan, results, options)
}
