// Validates a package without stopping at the first problem and returns a report; never throws for a bad package.
import { CollectingSink } from './check-sink.ts'
import type { PackageWarning } from './errors.ts'
import { type FrozenHashList, loadFrozenHashList } from './frozen-release.ts'
import { type InspectCounts, inspectPackage } from './inspect-package.ts'
import type { EvaluationProtocol } from './protocol-constants.ts'
import type { EpisodeCheck } from './sample-checks.ts'

export interface ValidatePackageOptions {
  /** Structural episode check (the episode codec); a throw becomes a `PACKAGE_EPISODE_INVALID` problem. */
  checkEpisode?: EpisodeCheck
  /** Replaces the shipped frozen SHA-256 list (tests simulate the published release with their own list). */
  frozenHashes?: FrozenHashList
}

/** One broken rule. `file` is relative to the package root; `message` names the field, the rule and the fix. */
export interface ValidationProblem {
  code: string
  file: string
  field?: string
  message: string
}

export interface ValidationReport {
  /** True when no problem was found (warnings never fail a package). */
  ok: boolean
  /** True when benchmark.json has the pinned hash of the published release (§9.3). */
  frozenRelease: boolean
  /** The marker benchmark.json uses, or null when it is unknown or unreadable. */
  protocol: EvaluationProtocol | null
  problems: ValidationProblem[]
  warnings: PackageWarning[]
  counts: InspectCounts
}

/** Checks every file of the package at `dir` with the same rules as `openPackage`, collecting every problem. */
export async function validatePackage(dir: string, options: ValidatePackageOptions = {}): Promise<ValidationReport> {
  const frozenHashes = options.frozenHashes ?? (await loadFrozenHashList())
  const sink = new CollectingSink()
  const result = await inspectPackage(dir, { frozenHashes, checkEpisode: options.checkEpisode }, sink)
  const problems = sink.problems.map(error => {
    const problem: ValidationProblem = { code: error.code, file: error.file ?? '', message: error.message }
    if (error.field !== undefined) problem.field = error.field
    return problem
  })
  return {
    ok: problems.length === 0,
    frozenRelease: result.frozenRelease,
    protocol: result.protocol ?? null,
    problems,
    warnings: sink.warnings,
    counts: result.counts,
  }
}
