// Public entry of the GPU scoring backend (Node only: it drives a Chromium page, loaded lazily); named re-exports, nothing computed here.
export {
  CERTIFY_MARGIN, DISTANCE_RELATIVE_ERROR, FLOAT32_ROUNDING, FLUSH_ABS, GPU_NO_CANDIDATE, GPU_OP_ULP_ERROR, QUERY_RELATIVE_ERROR,
  cloudBounds, isCertified, otherPointsLowerBound, pointErrorBound, queryErrorBound,
} from './certify.ts'
export { MAX_DEVICE_CLOUD_POINTS, type NearestAnswers, type NearestDevice, type NearestGroup } from './device.ts'
export { Float32EmulationDevice } from './float32-device.ts'
export { SELF_TEST_SIZES, selfTestDevice } from './self-test.ts'
export { SPOT_CHECK_STRIDE, emptyLockstepStats, runStartsLockstep, type LockstepSample, type LockstepStats } from './lockstep.ts'
export { scoreSamplesOnDevice, type DeviceSampleOutcome } from './score-on-device.ts'
export { DeviceBatchScorer, MAX_BATCH_SAMPLES } from './batch-scorer.ts'
export { CALIBRATION_POINTS_PER_PART, calibrationSample } from './calibration.ts'
export {
  DEFAULT_SCORING_BACKEND, SCORING_BACKEND_CHOICES, ScoringBackendChoiceSchema, classifyRenderer, scoringBackendFromEnv,
  type RendererKind, type ScoringBackendChoice,
} from './detect.ts'
export {
  CALIBRATION_PARTS, GPU_MIN_SPEEDUP_FRACTION, cpuRequestedDecision, decideBackend, hasGpuDeviceNode, openPageDevice, type BackendDecision, type DecideBackendOptions,
} from './backend.ts'
// Types only: the page device pulls in Playwright and Vite, so it is loaded lazily (openPageDevice).
export type { OpenPageDeviceOptions, PageNearestDevice } from './page-device.ts'
