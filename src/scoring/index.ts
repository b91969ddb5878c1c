// Public entry of the scoring core: named re-exports only; nothing is computed here.
export { SCORING_ERROR_CODES, ScoringError, type ScoringErrorCode } from './errors.ts'
export { QUATERNION_MIN_NORM, determinantMat3, mat3ToRows, multiplyMat3, quaternionToMatrix, transposeMat3 } from './mat3.ts'
export { kabsch, kabschRotationFromCovariance, svd3 } from './kabsch.ts'
export { PCA_AXIS_MIN_LENGTH, PCA_EIGENVALUE_TIE_RTOL, pcaFrame, type PcaFrame } from './pca.ts'
export { partStart, pcaSeedAxes, pcaStarts, type AlignmentStart, type PcaSeedAxes } from './starts.ts'
export { KD_LEAF_SIZE, KdTree, bruteForceNearest } from './kd-tree.ts'
export { chamferDistance } from './chamfer.ts'
export { ICP_CONVERGED_TOLERANCE, ICP_IMPROVEMENT_TOLERANCE, ICP_MAX_ITERATIONS, IcpContext, type IcpEvaluation, type StartResult } from './icp.ts'
export { ICP_KERNELS, type IcpKernel } from './objective.ts'
export { CellBuilder, buildVoronoiCells, cellsFromArrays, type CellRange, type CellRangeBuilder, type VoronoiCells } from './cells.ts'
export { WasmCellBuilder, buildVoronoiCellsWasm } from './cells-wasm.ts'
export {
  alignClouds, alignmentRecord, alignmentStarts, applyTransform, pickWinner, runStarts,
  type AlignmentCandidate, type AlignmentRecord,
} from './align.ts'
export { assignMinimumCost, matchGroup, type GroupMatch } from './matching.ts'
export { PART_CHAMFER_THRESHOLD, SCD_SCALE, metricsFromErrors, scoreParts, type PartRecord, type PartsScore, type SampleMetrics } from './metrics.ts'
export { groupIndices, prepareSample, type FinalPose, type PrepareOptions, type PreparedSample, type SampleInput } from './prepare-sample.ts'
export { finishSample, planSample, scoreSample, type SampleScore, type SamplePlan, type ScoreOptions } from './score-sample.ts'
export {
  RESOURCE_ACCOUNTING, WILSON_Z_95, summarize, wilsonInterval,
  type BenchmarkLayout, type BlockSummary, type MetricTriple, type ResourceMean, type Summary, type SummarizeOptions, type SummaryRow,
} from './summarize.ts'
export { shapeDistance, similarityGroups } from './similarity.ts'
