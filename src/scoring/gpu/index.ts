// Public entry of the GPU scoring backend (Node only; the device that drives a Chromium page is src/headless's, injected); named re-exports, nothing computed here.
export {
  CERTIFY_MARGIN, DISTANCE_RELATIVE_ERROR, FLOAT32_ROUNDING, FLUSH_ABS, GPU_NO_CANDIDATE, GPU_OP_ULP_ERROR, QUERY_RELATIVE_ERROR,
  cloudBounds, isCertified, otherPointsLowerBound, pointErrorBound, queryErrorBound,
} from './certify.ts'
export { MAX_DEVICE_CLOUD_POINTS, type NearestAnswers, type NearestDevice, type NearestGroup } from './device.ts'
export { Float32EmulationDevice } from './float32-device.ts'
export { SELF_TEST_SIZES, selfTestDevice } from './self-test.ts'
export { SPOT_CHECK_STRIDE, emptyLockstepStats, runStartsLockstep, type LockstepSample, type LockstepStats } from './lockstep.ts'
export { scoreSamplesOnDevice, type DeviceSampleOutcome } from './score-samples-on-device.ts'
export { DeviceBatchScorer, MAX_BATCH_SAMPLES } from './device-batch-scorer.ts'
export { CALIBRATION_POINTS_PER_PART, calibrationSample } from './calibration.ts'
export {
  DEFAULT_SCORING_BACKEND, SCORING_BACKEND_CHOICES, ScoringBackendChoiceSchema, classifyRenderer,
  type RendererKind, type ScoringBackendChoice,
} from './detect.ts'
export {
  CALIBRATION_PARTS, GPU_MIN_SPEEDUP_FRACTION, cpuRequestedDecision, decideBackend, hasGpuDeviceNode, type BackendDecision, type DecideBackendOptions, type OpenNearestDevice,
} from './backend.ts'
