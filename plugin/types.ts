// Types shared by the plugin (Node), the block suite (page) and the reporter: what crosses Vitest's boundaries.
import type { CliAgentResult, FinishSampleResponse, SamplePlan, StartSampleResponse, Timings } from '../src/harness/index.ts'

/** What each block project provides to its suite (`inject('awbBlock')`). */
export interface BlockContext {
  name: string
  source: string
  samples: { id: string; slug: string }[]
  thresholds: { SR?: number | undefined; PA?: number | undefined }
}

/** Per-test metadata the suite sets and the aggregate reporter reads (also through blob reports and merges). */
export interface SampleMeta {
  /** The official metrics row (scoring.md §9.2). */
  row: FinishSampleResponse['row']
  /** Page-side phases plus scoring time on the Node side, in ms. */
  timings: Timings & { scoreMs: number }
  backend: string
  runDir: string
  /** Set when a resumed run reports this sample from an earlier run of the chain instead of running it. */
  recordedBy?: string
}

declare module 'vitest' {
  interface ProvidedContext {
    awbBlock: BlockContext
  }
  interface TaskMeta {
    awb?: SampleMeta
  }
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    awbSamplePlan(block: string, sampleId: string): Promise<SamplePlan>
    awbStartSample(block: string, sampleId: string): Promise<StartSampleResponse>
    awbRecord(block: string, sampleId: string, entry: { type: string } & Record<string, unknown>): Promise<void>
    awbSaveFinal(block: string, sampleId: string, base64: string): Promise<string>
    awbFinishSample(block: string, sampleId: string, report: unknown): Promise<FinishSampleResponse>
    awbModelRequest(request: unknown): Promise<unknown>
    awbRunCliAgent(block: string, sampleId: string): Promise<CliAgentResult>
  }
}
