// The typed view of an opened package that the runner, scorer and plugin consume; data shapes only.
import type { PackageWarning } from './errors.ts'
import type { EvaluationProtocol } from './protocol-constants.ts'
import type { Identity, ReferenceMode } from './schemas.ts'

/** One reference page (§8), in page order. */
export interface PackagePage {
  /** 1-based page number. */
  page: number
  /** Path relative to the package root. */
  path: string
  /** SHA-256 of the page bytes (`source_sha256`); re-checked on every read. */
  sha256: string
}

/** One (block, sample id) task. Paths are relative to the package root. */
export interface PackageSample {
  block: string
  id: string
  /** `id` with every `/` replaced by `--` (§2.1 rule 5). */
  slug: string
  category: string | null
  parts: number
  band: string | null
  episodeId: string
  /** SHA-256 of the initial episode ZIP (benchmark.json = config.json). */
  episodeSha256: string
  episodePath: string
  evaluationPath: string
  /** SHA-256 of evaluation.json when the package was opened; it must still match at scoring time (§9.1). */
  evaluationSha256: string
  /** Reference pages in order; empty for `none` blocks. */
  pages: PackagePage[]
}

/** One block (§3, §5.1) with its verified task text. */
export interface PackageBlock {
  name: string
  /** Aggregation source, from benchmark.json (never hard-coded). */
  source: string
  dataset: string
  repoId: string
  revision: string
  configId: string
  referenceMode: ReferenceMode
  promptFile: string
  promptSha256: string
  /** The task text exactly as decoded from UTF-8 (not trimmed: a trailing newline stays). */
  taskText: string
  configPath: string
  /** The preparation identity of config.json. */
  identity: Identity
  /** Samples in plain code-point order of their ids. */
  samples: PackageSample[]
}

/** A package that passed every package-level and per-sample check. */
export interface BenchmarkPackage {
  /** Real path of the package root. */
  root: string
  /** `benchmark.json` `benchmark`. */
  benchmark: string
  sources: string[]
  /** The marker benchmark.json uses (v1 and v2 are the same protocol, §12). */
  protocol: EvaluationProtocol
  /** True when benchmark.json has the pinned hash and every listed file matched the frozen list (§9.3). */
  frozenRelease: boolean
  blocks: PackageBlock[]
  /** Findings that never fail a package (index disagreement, config id derivation, …). */
  warnings: PackageWarning[]
}
