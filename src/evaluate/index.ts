// Public entry of the evaluation glue: score final episodes and recorded runs; poses files; rows.
export { EvaluateError, EVALUATE_ERROR_CODES, type EvaluateErrorCode } from './errors.ts'
export { checkFinalAgainstInitial, expectedObjects } from './final-vs-initial.ts'
export { readFinalScene, type FinalScene, type ReadFinalSceneInput } from './final-scene.ts'
export { parsePosesFile } from './poses-file.ts'
export {
  AlignmentRowSchema, BaseFieldsSchema, ErrorFieldsSchema, MetricsRowSchema, PartRowSchema, ScoredFieldsSchema,
  describeError, describeIssues, errorFields, parseMetricsRow, scoredFields,
  type BaseFields, type ErrorFields, type MetricsRow, type ScoredFields, type ScoredRow,
} from './rows/index.ts'
export { scoringInput } from './scoring-input.ts'
export { createScorer, SCORING_BACKENDS, type CreateScorerOptions, type SampleScorer, type ScoringTiming } from './sample-scorer.ts'
export { OUTPUT_PROTOCOL, scoreFinalEpisode, type ScoreFinalEpisodeInput } from './score-final.ts'
export { attemptRow } from './attempt-row.ts'
export { benchmarkLayout, evaluateRuns, type EvaluateRunsOptions, type EvaluateRunsResult } from './evaluate-runs.ts'
