// Page-side entry of the harness: run one sample; the Node side lives in `./node/index.ts`.
export { sampleAnnotations, type SampleAnnotation } from './sample-annotations.ts'
export { runSample, type RunSampleDeps, type SampleHost, type SampleReport } from './run-sample.ts'
export {
  AgentSpecSchema, CliAgentResultSchema, FinishSampleRequestSchema, FinishSampleResponseSchema, SampleMetaSchema, SamplePlanSchema, SampleTimingsSchema, ScoringTimingsSchema, StartSampleResponseSchema, TimingsSchema,
  type AgentSpec, type CliAgentResult, type FinishSampleRequest, type FinishSampleResponse, type SampleMeta, type SamplePlan, type SampleTimings, type ScoringTimings, type StartSampleResponse, type Timings,
} from './sample-messages.ts'
