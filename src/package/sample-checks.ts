// Per-sample file checks: the episode hash, evaluation.json, pages.json and page files (§7–§9).
import type { ParsedBlock, ParsedSample } from './benchmark-rules.ts'
import { type CheckSink, ScopedSink } from './check-sink.ts'
import { PackageError } from './errors.ts'
import { checkEvaluation, type Evaluation } from './evaluation.ts'
import { sha256Bytes } from './hashing.ts'
import { pageFileName, referenceDir } from './layout.ts'
import type { PackagePage } from './model.ts'
import { checkFrozenHash, hashPackageFile, type PackageFiles, parseJsonBytes, readPackageBytes } from './package-files.ts'
import { parseWithSchema } from './schema-problems.ts'
import { type Identity, PagesSchema } from './schemas.ts'

/** Structural episode check supplied by the episode codec; a throw becomes a problem. */
export type EpisodeCheck = (bytes: Uint8Array, file: string) => Promise<void>

/** Files looked at per sample, for the validation report. */
export interface SampleCounts {
  episodes: number
  evaluations: number
  pages: number
}

/**
 * Checks the initial episode against `sha256`. With `checkEpisode` the bytes are read once (hashed and
 * handed over); without it the file is streamed, so a large package never sits in memory.
 */
export async function checkEpisodeFile(files: PackageFiles, file: string, sha256: string, checkEpisode: EpisodeCheck | undefined, parent: CheckSink): Promise<boolean> {
  const sink = new ScopedSink(parent)
  let bytes: Uint8Array | undefined
  let actual: string | undefined
  if (checkEpisode === undefined) actual = await sink.captureAsync(() => hashPackageFile(files, file))
  else {
    bytes = await sink.captureAsync(() => readPackageBytes(files, file))
    actual = bytes === undefined ? undefined : sha256Bytes(bytes)
  }
  if (actual === undefined) return false
  if (actual !== sha256) {
    sink.problem(new PackageError('PACKAGE_HASH_MISMATCH', {
      file,
      message: `SHA-256 of the initial episode is ${actual} but config.json and benchmark.json record ${sha256}`,
      fix: 'The episode is corrupt or was replaced: restore it from the pinned revision',
    }))
    return false
  }
  if (checkEpisode !== undefined && bytes !== undefined) {
    try {
      await checkEpisode(bytes, file)
    } catch (error) {
      sink.problem(new PackageError('PACKAGE_EPISODE_INVALID', {
        file,
        message: `the initial episode is not a valid 3dwebagent-episode v1 archive: ${error instanceof Error ? error.message : String(error)}`,
        fix: 'Restore the episode from the pinned revision',
        cause: error,
      }))
      return false
    }
  }
  return true
}

/**
 * Reads one evaluation.json, checks it against the frozen list and (when `identity` is known) against the
 * package key. Resolves to its SHA-256 and the parsed value, or undefined when any rule broke.
 */
export async function checkEvaluationFile(
  files: PackageFiles,
  file: string,
  expect: { sample: ParsedSample; identity: Identity | undefined },
  parent: CheckSink,
): Promise<{ sha256: string; evaluation: Evaluation } | undefined> {
  const sink = new ScopedSink(parent)
  const bytes = await sink.captureAsync(() => readPackageBytes(files, file))
  if (bytes === undefined || !checkFrozenHash(files, file, bytes, sink)) return undefined
  const value = parseJsonBytes(file, bytes, sink)
  if (value === undefined) return undefined
  const { sample, identity } = expect
  const evaluation = checkEvaluation(value, {
    file,
    expect: identity === undefined ? undefined : { sampleId: sample.id, identity, initialSha256: sample.record.sha256, parts: sample.record.parts },
  }, sink)
  if (evaluation === undefined || !sink.isClean) return undefined
  return { sha256: sha256Bytes(bytes), evaluation }
}

/** Reads pages.json of a reference block and re-hashes every page file (§8). Empty for `none` blocks. */
export async function checkPages(files: PackageFiles, block: ParsedBlock, sample: ParsedSample, parent: CheckSink): Promise<PackagePage[] | undefined> {
  const mode = block.record.reference_mode
  const dir = referenceDir(block.folders, sample.slug, mode)
  if (dir === undefined) return []
  const sink = new ScopedSink(parent)
  const file = `${dir}/pages.json`
  const bytes = await sink.captureAsync(() => readPackageBytes(files, file))
  if (bytes === undefined || !checkFrozenHash(files, file, bytes, sink)) return undefined
  const value = parseJsonBytes(file, bytes, sink)
  const pages = value === undefined ? undefined : parseWithSchema(PagesSchema, value, { file, what: 'pages.json' }, sink)
  if (pages === undefined) return undefined
  const fail = (field: string, message: string, fix: string): void => sink.problem(new PackageError('PACKAGE_PAGES', { file, field, message, fix }))
  const restore = 'Restore pages.json and the page files from the pinned revision'
  if (pages.reference_mode !== mode) fail('reference_mode', `reference_mode ${JSON.stringify(pages.reference_mode)} must equal the block's ${JSON.stringify(mode)}`, restore)
  if (mode === 'final-image' && pages.pages.length !== 1) fail('pages', `a final-image block has exactly one page, got ${pages.pages.length}`, restore)
  const out: PackagePage[] = []
  for (const [index, entry] of pages.pages.entries()) {
    const field = `pages[${index}]`
    if (entry.page !== index + 1) {
      fail(`${field}.page`, `pages must be numbered 1, 2, …, n in order, but entry ${index + 1} is page ${entry.page}`, restore)
      continue
    }
    const match = /^page-(\d{4})\.(png|jpg|webp)$/.exec(entry.file)
    if (match === null || entry.file !== pageFileName(entry.page, match[2] ?? '')) {
      fail(`${field}.file`, `file must be ${pageFileName(entry.page, '<png|jpg|webp>')} in the same folder, got ${JSON.stringify(entry.file)}`, restore)
      continue
    }
    const pagePath = `${dir}/${entry.file}`
    const actual = await sink.captureAsync(() => hashPackageFile(files, pagePath))
    if (actual === undefined) continue
    if (actual !== entry.source_sha256) {
      sink.problem(new PackageError('PACKAGE_HASH_MISMATCH', { file: pagePath, message: `SHA-256 of the page is ${actual} but ${file} ${field}.source_sha256 is ${entry.source_sha256}`, fix: restore }))
      continue
    }
    out.push({ page: entry.page, path: pagePath, sha256: actual })
  }
  return sink.isClean ? out : undefined
}
