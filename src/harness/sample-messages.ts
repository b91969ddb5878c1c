// The messages between the page that runs a sample and the Node side that owns files and scoring; data only.
import * as z from 'zod'
import { ApiAgentSpecSchema } from '../agents/api/index.ts'
import { MetricsRowSchema } from '../evaluate/rows/index.ts'

/**
 * The code of a page agent's realm: one ES module, bundled by the Node side (agent-bundle.ts), that the harness
 * evaluates in a sandboxed frame (src/agents/realm). The page never imports agent code from the test server.
 */
const RealmCodeSchema = z.string().min(1)

/** How the page should build the sample's agent (resolved on the Node side, which reads the scripts). */
export const AgentSpecSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('replay'), script: z.string(), source: z.string(), realm: RealmCodeSchema }),
  z.strictObject({ kind: z.literal('idle'), realm: RealmCodeSchema }),
  /** A user's page agent: its module, whose default export is `defineAgent(...)`, is bundled into `realm`. */
  z.strictObject({ kind: z.literal('module'), source: z.string(), realm: RealmCodeSchema }),
  /** An OpenAI-compatible or Anthropic model; its requests go to Node through the page's model transport. */
  z.strictObject({ kind: z.literal('api'), spec: ApiAgentSpecSchema, realm: RealmCodeSchema }),
  /**
   * Codex CLI, Claude Code or an external agent program, run by Node; it reaches the page's tools through an MCP
   * relay into this page.
   */
  z.strictObject({ kind: z.literal('cli'), cli: z.enum(['codex', 'claude', 'external']), model: z.string().min(1) }),
  /** The configured agent cannot run this sample (e.g. no demonstration): the sample fails with `reason`. */
  z.strictObject({ kind: z.literal('unavailable'), reason: z.string() }),
])
export type AgentSpec = z.infer<typeof AgentSpecSchema>

export const StartSampleResponseSchema = z.strictObject({
  prompt: z.string(),
  /** Same-origin URL of the initial episode on the input route. */
  episodeUrl: z.string(),
  pages: z.array(z.strictObject({ page: z.number().int().positive(), url: z.string(), mimeType: z.string() })),
  timeoutMs: z.number().positive(),
  agent: AgentSpecSchema,
})
export type StartSampleResponse = z.infer<typeof StartSampleResponseSchema>

const NullableString = z.string().nullable()

export const ExecutionSchema = z.strictObject({
  status: z.enum(['completed', 'failed', 'timeout', 'interrupted']),
  final_answer: NullableString,
  error: NullableString,
  usage: z.record(z.string(), z.unknown()).nullable(),
  cost_usd: z.number().nullable(),
  model: NullableString,
})

export const ArchiveSchema = z.strictObject({
  status: z.enum(['not_saved', 'saved', 'failed']),
  sha256: NullableString,
  calls: z.number().int().nonnegative().nullable(),
  error: NullableString,
})

/** Page-side time spent per phase, in milliseconds (agent and scoring are reported apart from overhead). */
export const TimingsSchema = z.strictObject({
  openMs: z.number().nonnegative(),
  agentMs: z.number().nonnegative(),
  exportMs: z.number().nonnegative(),
  saveMs: z.number().nonnegative(),
})
export type Timings = z.infer<typeof TimingsSchema>

/** The Node side's scoring of a final episode, in ms. */
export const ScoringTimingsSchema = z.strictObject({
  /** All of it: package and episode checks, final poses, waiting for the scoring pool, alignment and metrics. */
  scoreMs: z.number().nonnegative(),
  /** Of which waiting while the shared scoring pool scored other samples (block projects finish concurrently). */
  scoreQueueMs: z.number().nonnegative(),
  /** Of which aligning and matching on the pool (the scoring backend's own time). */
  scoreComputeMs: z.number().nonnegative(),
})
export type ScoringTimings = z.infer<typeof ScoringTimingsSchema>

/** The page's phases plus the Node side's scoring, in ms. */
export const SampleTimingsSchema = TimingsSchema.extend(ScoringTimingsSchema.shape)
export type SampleTimings = z.infer<typeof SampleTimingsSchema>

export const FinishSampleRequestSchema = z.strictObject({
  execution: ExecutionSchema,
  archive: ArchiveSchema,
  agentOutcome: z.record(z.string(), z.unknown()).nullable(),
  toolCalls: z.number().int().nonnegative(),
  durationSeconds: z.number().nonnegative(),
  timings: TimingsSchema,
  /** The final scene as a base64 PNG (kept as final.png), or null when it could not be rendered. */
  capture: z.string().nullable(),
})
export type FinishSampleRequest = z.infer<typeof FinishSampleRequestSchema>

/** What a CLI agent run on the Node side reports back to the page (runner.md §5.5 execution fields). */
export const CliAgentResultSchema = z.strictObject({
  status: z.enum(['completed', 'failed', 'timeout', 'interrupted']),
  finalAnswer: z.string().nullable(),
  error: z.string().nullable(),
  usage: z.record(z.string(), z.unknown()).nullable(),
  costUsd: z.number().nullable(),
  model: z.string().nullable(),
  toolCalls: z.number().int().nonnegative(),
})
export type CliAgentResult = z.infer<typeof CliAgentResultSchema>

/**
 * What the run does with a sample, asked before it starts: run it; report what this run or an earlier run of the
 * resumed chain recorded; or not start it because the run stopped (`stopped`: stop rules, Ctrl-C; the test is skipped).
 */
export const SamplePlanSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('run') }),
  z.strictObject({
    kind: z.literal('recorded'),
    row: MetricsRowSchema,
    timings: SampleTimingsSchema,
    backend: z.string(),
    runDir: z.string(),
    sampleDir: z.string(),
    /** Why the recorded attempt failed (its test fails again, as it did), or null. */
    failure: z.string().nullable(),
  }),
  z.strictObject({ kind: z.literal('stopped'), reason: z.string() }),
])
export type SamplePlan = z.infer<typeof SamplePlanSchema>

/** The official metrics row of the sample (scoring.md §9.2) plus the harness's own figures. */
export const FinishSampleResponseSchema = z.strictObject({
  row: MetricsRowSchema,
  scoring: ScoringTimingsSchema,
  /** The scoring backend, naming the ICP kernel that ran (`cpu-cells`, …). */
  backend: z.string(),
  runDir: z.string(),
  /** The sample's folder in the run (result.json, final.episode.zip, final.png). */
  sampleDir: z.string(),
})
export type FinishSampleResponse = z.infer<typeof FinishSampleResponseSchema>

/**
 * Per-test metadata (`task.meta.awb`) the block suite sets and the aggregate reporter reads, also through blob
 * reports and `--merge-reports`. Set by page code, so the reporter parses it.
 */
export const SampleMetaSchema = z.strictObject({
  /** The official metrics row (scoring.md §9.2). */
  row: MetricsRowSchema,
  timings: SampleTimingsSchema,
  /** The scoring backend that scored the row. */
  backend: z.string(),
  runDir: z.string(),
  /** Set when a resumed run reports this sample from an earlier run of the chain instead of running it. */
  recordedBy: z.string().optional(),
})
export type SampleMeta = z.infer<typeof SampleMetaSchema>
