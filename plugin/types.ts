// Types shared by the plugin (Node), the block suite (page) and the reporter: what crosses Vitest's boundaries.
import type { CliAgentResult, FinishSampleResponse, SampleMeta, SamplePlan, StartSampleResponse } from '../src/harness/index.ts'

/** What each block project provides to its suite (`inject('awbBlock')`). */
export interface BlockContext {
  name: string
  source: string
  samples: { id: string; slug: string }[]
  thresholds: { SR?: number | undefined; PA?: number | undefined }
}

/** Per-test metadata the suite sets and the aggregate reporter reads (its schema: SampleMetaSchema). */
export type { SampleMeta }

/** Recorded at the start of each block test: records nothing of interest, but makes Vitest deliver the test's
 * start to the Node side first (recording an artifact flushes the runner's throttled task updates). */
export interface SampleStartArtifact {
  type: 'awb:sample-start'
  sampleId: string
}

declare module 'vitest' {
  interface ProvidedContext {
    awbBlock: BlockContext
  }
  interface TestArtifactRegistry {
    'awb:sample-start': SampleStartArtifact
  }
  interface TaskMeta {
    awb?: SampleMeta
  }
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    awbSamplePlan(block: string, sampleId: string): Promise<SamplePlan>
    awbHeartbeat(block: string, sampleId: string): Promise<{ stop: string | null }>
    awbStartSample(block: string, sampleId: string): Promise<StartSampleResponse>
    awbRecord(block: string, sampleId: string, entry: { type: string } & Record<string, unknown>): Promise<void>
    awbSaveFinal(block: string, sampleId: string, base64: string): Promise<string>
    awbFinishSample(block: string, sampleId: string, report: unknown): Promise<FinishSampleResponse>
    awbModelRequest(request: unknown): Promise<unknown>
    awbRunCliAgent(block: string, sampleId: string): Promise<CliAgentResult>
  }
}
