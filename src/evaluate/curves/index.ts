// Public entry of per-step score curves: the world after every recorded call, scored with the official protocol.
export { curveFigures, type CurveFigures, type StepScore } from './curve-figures.ts'
export { scoreSampleCurve, type CurveStep, type SampleCurve, type ScoreSampleCurveInput, type StateDetail } from './sample-curve.ts'
export { framesByIndex, readStepScenes, type ReadStepScenesInput, type StepCall, type StepScenes } from './step-scenes.ts'
export { curvesProgress, formatCurvesProgress, formatDuration, type CurvesProgress, type SampleSteps } from './curves-progress.ts'
export { computeRunCurves, CPU_CURVE_SAMPLES_IN_FLIGHT, isFailedCurve, recordedPackageDir, type ComputeRunCurvesOptions, type FailedCurve, type RunCurves } from './run-curves.ts'
