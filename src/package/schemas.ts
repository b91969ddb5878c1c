// zod schemas of the package's JSON files (§5–§8) and their inferred types; cross-file rules live elsewhere.
// The formats belong to the dataset's authors, so objects are loose: unknown keys are tolerated (§5).
import * as z from 'zod'

const SHA256 = /^[0-9a-f]{64}$/
const REVISION = /^[0-9a-f]{40}$/
/** A single folder name of the layout: block, repo tail, config id. */
const SEGMENT = /^[A-Za-z0-9_.-]+$/

export const Sha256Schema = z.string().regex(SHA256, 'must be 64 lowercase hex characters (a SHA-256)')
export const RevisionSchema = z.string().regex(REVISION, 'must be a full 40-hex-digit commit id')
const SegmentSchema = z.string().regex(SEGMENT, 'must be one folder name of [A-Za-z0-9_.-]+')

export const REFERENCE_MODES = ['none', 'final-image', 'manualbook'] as const
export const ReferenceModeSchema = z.enum(REFERENCE_MODES)
export type ReferenceMode = z.infer<typeof ReferenceModeSchema>

/** `blocks[].samples[<id>]` (§5.2). */
export const SampleRecordSchema = z.looseObject({
  /** PartNet category, IKEA / Fantastic Breaks id prefix; absent or null for AssemblyBench. */
  category: z.string().nullish(),
  /** Number of parts. */
  parts: z.number().int().positive(),
  /** Part-count band `low` / `mid` / `high`, `all` for Fantastic Breaks; null accepted. */
  band: z.string().nullish(),
  /** SHA-256 of the initial episode ZIP. */
  sha256: Sha256Schema,
  /** `manifest.id` of the initial episode (`awa-<64 hex>` in the release). */
  episode_id: z.string().min(1),
})
export type SampleRecord = z.infer<typeof SampleRecordSchema>

/** One entry of `benchmark.json` `blocks` (§5.1); samples are parsed one by one, hence `unknown` values. */
export const BlockSchema = z.looseObject({
  name: SegmentSchema,
  source: z.string().min(1),
  dataset: z.string().min(1),
  repo_id: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be "<owner>/<repo-tail>"'),
  revision: RevisionSchema,
  config_id: SegmentSchema,
  data: SegmentSchema,
  reference_mode: ReferenceModeSchema,
  prompt_file: z.string().min(1),
  prompt_sha256: Sha256Schema,
  samples: z.record(z.string(), z.unknown()),
})
export type BlockRecord = z.infer<typeof BlockSchema>

/** `benchmark.json` top level (§5); blocks are parsed one by one so one bad block does not hide the others. */
export const BenchmarkSchema = z.looseObject({
  version: z.literal(1),
  benchmark: z.string().min(1),
  sources: z.array(z.string().min(1)).min(1),
  blocks: z.array(z.unknown()).min(1),
  /** Protocol statement; the marker is checked separately so an unknown marker gets its own code. */
  evaluation: z.strictObject({
    protocol: z.string(),
    similarity_policy: z.literal('geometry'),
    similarity_threshold: z.literal(0.0001),
  }),
  aggregation: z.unknown().optional(),
  provenance: z.unknown().optional(),
})
export type BenchmarkRecord = z.infer<typeof BenchmarkSchema>

/** `identity` of `config.json` and `key.identity` of `evaluation.json` (§6). */
export const IdentitySchema = z.looseObject({
  dataset: z.string().min(1),
  revision: RevisionSchema,
  protocol: z.string(),
  preparation: z.looseObject({
    surface_points: z.number(),
    fps_points: z.number(),
    sampling_seed: z.number(),
    initialization_seed: z.number(),
    min_gap: z.number(),
  }),
  producer: z.record(z.string(), z.unknown()),
  contract: z.string(),
  engine: z.string(),
  model_format: z.string().optional(),
})
export type Identity = z.infer<typeof IdentitySchema>

/** `config.json` `samples[<id>]` (§6). */
export const ConfigSampleSchema = z.looseObject({
  episode: z.string().min(1),
  episode_id: z.string().min(1),
  sha256: Sha256Schema,
  parts: z.number().int().positive(),
})
export type ConfigSample = z.infer<typeof ConfigSampleSchema>

/** `config.json` (§6). */
export const ConfigSchema = z.looseObject({
  version: z.literal(1),
  config_id: z.string().min(1),
  identity: IdentitySchema,
  samples: z.record(z.string(), ConfigSampleSchema),
})
export type ConfigRecord = z.infer<typeof ConfigSchema>

/** One `pages.json` entry (§8); provenance keys are tolerated. */
export const PageEntrySchema = z.looseObject({
  page: z.number().int().positive(),
  file: z.string().min(1),
  source_sha256: Sha256Schema,
  image_sha256: z.string(),
})
export type PageEntry = z.infer<typeof PageEntrySchema>

/** `pages.json` (§8). */
export const PagesSchema = z.looseObject({
  dataset: z.string(),
  revision: z.string(),
  reference_mode: z.enum(['final-image', 'manualbook']),
  pages: z.array(PageEntrySchema).min(1),
})
export type PagesRecord = z.infer<typeof PagesSchema>

/** `key.similarity` / `equivalence.protocol` (§7): only `policy` and `threshold` are rules. */
export const SimilaritySchema = z.looseObject({ policy: z.string(), threshold: z.number() })

/**
 * The envelope of `evaluation.json` (§7). Key fields other than the marker, parts and similarity are optional
 * here so reduced conformance files parse; `parseEvaluation` requires them when package checks are asked for.
 * Points and poses are `unknown` here: their checks need rule-specific messages and typed arrays.
 */
export const EvaluationEnvelopeSchema = z.looseObject({
  version: z.literal(1),
  key: z.looseObject({
    sample_id: z.string().optional(),
    identity: IdentitySchema.optional(),
    initial_sha256: Sha256Schema.optional(),
    parts: z.number().int().positive(),
    preparation_protocol: z.string().optional(),
    evaluation_protocol: z.string(),
    similarity: SimilaritySchema,
  }),
  provenance: z.unknown().optional(),
  part_ids: z.array(z.string()).min(1),
  scale_divisor: z.number(),
  points: z.record(z.string(), z.unknown()),
  gt_poses: z.record(z.string(), z.unknown()),
  equivalence: z.looseObject({ groups: z.array(z.array(z.string())), protocol: z.unknown() }),
})
export type EvaluationEnvelope = z.infer<typeof EvaluationEnvelopeSchema>
