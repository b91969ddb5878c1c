// The scorer and what it takes (final poses, the scorer's input from an evaluation): light on purpose, so `awb score`
// can start the scoring workers before it loads the package and episode readers (start-up, bench/startup.ts).
export { parsePosesFile } from './poses-file.ts'
export { createScorer, gpuBackendLabel, GPU_BACKEND_LABEL, GPU_SAMPLES_AT_ONCE, SCORING_BACKENDS, type CreateScorerOptions, type SampleScorer, type ScoringTiming } from './create-scorer.ts'
export { scoringInput } from './scoring-input.ts'
