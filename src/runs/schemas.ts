// zod schemas of the run records written by runners (runner.md §5); loose, since other runners write them too.
import * as z from 'zod'

/** The only run kind and version this harness reads and writes (runner.md §5.1). */
export const RUN_KIND = 'assembly-world-bench'
export const RUN_VERSION = 1

const Nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional()

/** A run id as a merge names a shard run: one folder name, beside the merged run's own folder. */
const RunIdSchema = z.string().min(1).refine(id => id !== '.' && id !== '..' && !/[/\\\0]/.test(id), 'must be one folder name')

/** One shard run of a merge, as the merge read it: its id, its status and how its seal chain ended (null: unsealed). */
const MergeShardSchema = z.strictObject({
  /** The shard run's folder name (its id), beside the merged run's folder. */
  run: RunIdSchema,
  status: z.enum(['running', 'completed', 'failed', 'paused']),
  /** Lines of its seals.jsonl and the SHA-256 of the last one when the merge read it; null for a run made before seals. */
  seals: z.strictObject({ count: z.number().int().nonnegative(), head: z.string().regex(/^[0-9a-f]{64}$/).nullable() }).nullable(),
})
export type MergeShard = z.infer<typeof MergeShardSchema>

/**
 * run.json `merge` (this harness's own field): the run is `vitest run --merge-reports` over blob reports, and its rows
 * are the records of these shard runs. It holds no sample folder of its own.
 */
const MergeRecordSchema = z.strictObject({
  shards: z.array(MergeShardSchema).min(1),
  /** run.json fields the shard runs disagree on (left out of the merged run.json: no one of them is the run's). */
  differing: z.array(z.string()),
  merged_at: z.string(),
})

/** `run.json`: fields the evaluator reads; everything else (options, versions, …) is kept but not interpreted. */
export const RunJsonSchema = z.looseObject({
  version: z.literal(RUN_VERSION),
  kind: z.literal(RUN_KIND),
  status: z.enum(['running', 'completed', 'failed', 'paused']),
  started_at: z.string().optional(),
  /** Absolute path of the run this one resumes, or null for a root run. */
  source_run: Nullable(z.string()),
  selection: z.record(z.string(), z.array(z.string())).optional(),
  /** Task text per block, exactly as sent to the agent. */
  tasks: z.record(z.string(), z.string()).optional(),
  reference_modes: z.record(z.string(), z.string()).optional(),
  /** Set on a merged run (`--merge-reports`): the shard runs whose records it reports. */
  merge: MergeRecordSchema.optional(),
})
export type RunJson = z.infer<typeof RunJsonSchema>

const UsageSchema = z.record(z.string(), z.unknown())

export const ExecutionSchema = z.looseObject({
  status: z.enum(['pending', 'completed', 'failed', 'timeout', 'interrupted']),
  final_answer: Nullable(z.string()),
  usage: Nullable(UsageSchema),
  cost_usd: Nullable(z.number()),
  exit_code: Nullable(z.number()),
  model: Nullable(z.string()),
  agent_error: Nullable(z.string()),
  error: Nullable(z.string()),
})

/**
 * archive `rebuild` (this harness's own field): the sample's page was lost before it saved its world, and Node rebuilt
 * that world from the initial episode and the tool calls it recorded (conversation.jsonl), replaying each one and
 * checking its answer. `rebuilt`: the archive (status `saved`) is that world; `not_rebuilt`: why it could not be.
 */
const RebuildRecordSchema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('rebuilt'),
    from: z.literal('conversation.jsonl'),
    /** `tool_call` records read. */
    tool_calls: z.number().int().nonnegative(),
    /** Calls that reached the world, each replayed with the recorded answer. */
    replayed: z.number().int().nonnegative(),
  }),
  z.strictObject({ status: z.literal('not_rebuilt'), reason: z.string(), tool_calls: z.number().int().nonnegative() }),
])

export const ArchiveSchema = z.looseObject({
  status: z.enum(['not_saved', 'saved', 'failed']),
  sha256: Nullable(z.string().regex(/^[0-9a-f]{64}$/)),
  calls: Nullable(z.number().int().nonnegative()),
  error: Nullable(z.string()),
  rebuild: RebuildRecordSchema.optional(),
})

/** `result.json` of one sample attempt (runner.md §5.5). A fresh record is just `{"status": "pending"}`. */
export const ResultJsonSchema = z.looseObject({
  status: z.enum(['pending', 'running', 'completed', 'failed']),
  started_at: Nullable(z.string()),
  finished_at: Nullable(z.string()),
  execution: ExecutionSchema.optional(),
  archive: ArchiveSchema.optional(),
  agent_outcome: Nullable(z.record(z.string(), z.unknown())),
  duration_seconds: Nullable(z.number()),
  tool_calls: Nullable(z.number().int().nonnegative()),
  /** Paper-era results carry this instead of `tool_calls`. */
  native_webmcp_call_count: Nullable(z.number().int().nonnegative()),
})
export type ResultJson = z.infer<typeof ResultJsonSchema>

/** `input.json`: the config.json sample record plus where it came from (runner.md §5.2). */
export const InputJsonSchema = z.looseObject({
  block: z.string(),
  sample_id: z.string(),
  episode: z.string().optional(),
  episode_id: z.string().optional(),
  sha256: z.string().optional(),
  parts: z.number().int().optional(),
  identity: z.record(z.string(), z.unknown()).optional(),
})
export type InputJson = z.infer<typeof InputJsonSchema>
