// Public entry of the evaluation glue: score final episodes and recorded runs; poses files; rows.
export { EvaluateError, EVALUATE_ERROR_CODES, type EvaluateErrorCode } from './errors.ts'
export { checkFinalAgainstInitial, expectedObjects } from './final-vs-initial.ts'
export { readFinalScene, type FinalScene, type ReadFinalSceneInput } from './final-scene.ts'
export {
  AlignmentRowSchema, BaseFieldsSchema, ErrorFieldsSchema, MetricsRowSchema, PartRowSchema, ScoredFieldsSchema,
  describeError, describeIssues, errorFields, parseMetricsRow, scoredFields,
  type BaseFields, type ErrorFields, type MetricsRow, type ScoredFields, type ScoredRow,
} from './rows/index.ts'
export { createScorer, GPU_SAMPLES_AT_ONCE, parsePosesFile, SCORING_BACKENDS, scoringInput, type CreateScorerOptions, type SampleScorer, type ScoringTiming } from './scorer/index.ts'
export { OUTPUT_PROTOCOL, scoreFinalEpisode, type ScoreFinalEpisodeInput } from './score-final-episode.ts'
export { attemptRow, baseFields, type BaseFieldsInput } from './attempt-row.ts'
export { benchmarkLayout, EVALUATION_RECORD, evaluateRuns, type EvaluateRunsOptions, type EvaluateRunsResult } from './evaluate-runs.ts'
