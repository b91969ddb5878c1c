// Opens a verified package for use, and re-verifies one sample's files right before they are used (§9.1).
import { createThrowingSink } from './check-sink.ts'
import type { PackageWarning } from './errors.ts'
import { PackageError } from './errors.ts'
import { type Evaluation, parseEvaluation } from './evaluation.ts'
import { type FrozenHashList, loadFrozenHashList } from './frozen-release.ts'
import { sha256Bytes } from './hashing.ts'
import { inspectPackage } from './inspect-package.ts'
import type { BenchmarkPackage, PackagePage, PackageSample } from './model.ts'
import { hashPackageFile, type PackageFiles, parseJsonBytes, readPackageBytes } from './package-files.ts'

export interface OpenPackageOptions {
  /** Replaces the shipped frozen SHA-256 list (tests simulate the published release with their own list). */
  frozenHashes?: FrozenHashList
  /** Called after each sample is verified: samples done so far and the package's total (progress output). */
  onProgress?: (done: number, total: number) => void
}

/**
 * Reads and verifies everything package-level and per sample; throws the first broken rule as a
 * `PackageError`. Warnings (index disagreement, not the frozen release, …) are returned in `warnings`.
 */
export async function openPackage(dir: string, options: OpenPackageOptions = {}): Promise<BenchmarkPackage> {
  const warnings: PackageWarning[] = []
  const frozenHashes = options.frozenHashes ?? (await loadFrozenHashList())
  const result = await inspectPackage(dir, { frozenHashes, ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }) }, createThrowingSink(warnings))
  if (result.package === undefined) throw new Error('unreachable: a throwing sink leaves no incomplete package')
  return { ...result.package, warnings }
}

/** The sample `id` of block `block`; an unknown block or sample is an error (§2.1 rule 6). */
export function findSample(pkg: BenchmarkPackage, block: string, id: string): PackageSample {
  const found = pkg.blocks.find(candidate => candidate.name === block)
  if (found === undefined) {
    throw new PackageError('PACKAGE_UNKNOWN_SAMPLE', { file: 'benchmark.json', field: 'blocks', message: `unknown block ${JSON.stringify(block)}`, fix: `Use one of ${pkg.blocks.map(b => b.name).join(', ')}` })
  }
  const sample = found.samples.find(candidate => candidate.id === id)
  if (sample === undefined) {
    throw new PackageError('PACKAGE_UNKNOWN_SAMPLE', { file: 'benchmark.json', field: `blocks.${block}.samples`, message: `unknown sample id ${JSON.stringify(id)} in block ${block}`, fix: 'Use a sample id listed in benchmark.json for that block' })
  }
  return sample
}

function filesOf(pkg: BenchmarkPackage): PackageFiles {
  // The frozen list was already enforced on open; re-checks compare against hashes recorded then.
  return { root: pkg.root, frozen: undefined }
}

function changed(file: string, recorded: string, actual: string): PackageError {
  return new PackageError('PACKAGE_HASH_MISMATCH', {
    file,
    message: `the file changed since the package was opened: SHA-256 is ${actual}, recorded ${recorded}`,
    fix: 'Do not modify the package during a run; restore the file and run again',
  })
}

/** Streams the sample's initial episode through SHA-256 again and throws if it changed. */
export async function verifyEpisode(pkg: BenchmarkPackage, sample: PackageSample): Promise<void> {
  const actual = await hashPackageFile(filesOf(pkg), sample.episodePath)
  if (actual !== sample.episodeSha256) throw changed(sample.episodePath, sample.episodeSha256, actual)
}

/** Reads the sample's initial episode, checking the bytes it returns against the recorded SHA-256. */
export async function readEpisode(pkg: BenchmarkPackage, sample: PackageSample): Promise<Uint8Array> {
  const bytes = await readPackageBytes(filesOf(pkg), sample.episodePath)
  const actual = sha256Bytes(bytes)
  if (actual !== sample.episodeSha256) throw changed(sample.episodePath, sample.episodeSha256, actual)
  return bytes
}

/** Reads one reference page, checking the bytes it returns against `source_sha256`. */
export async function readPage(pkg: BenchmarkPackage, page: PackagePage): Promise<Uint8Array> {
  const bytes = await readPackageBytes(filesOf(pkg), page.path)
  const actual = sha256Bytes(bytes)
  if (actual !== page.sha256) throw changed(page.path, page.sha256, actual)
  return bytes
}

/**
 * Loads the sample's evaluation.json for scoring: the bytes must still have the hash recorded on open
 * (§9.1), and the key must match the package (sample id, identity, initial hash, parts).
 */
export async function loadEvaluation(pkg: BenchmarkPackage, sample: PackageSample): Promise<Evaluation> {
  const file = sample.evaluationPath
  const bytes = await readPackageBytes(filesOf(pkg), file)
  const actual = sha256Bytes(bytes)
  if (actual !== sample.evaluationSha256) throw changed(file, sample.evaluationSha256, actual)
  const block = pkg.blocks.find(candidate => candidate.name === sample.block)
  if (block === undefined) throw new PackageError('PACKAGE_UNKNOWN_SAMPLE', { file, message: `sample ${sample.id} names block ${sample.block}, which the package does not have`, fix: 'Pass a sample taken from this package' })
  const value = parseJsonBytes(file, bytes, createThrowingSink())
  return parseEvaluation(value, {
    file,
    expect: { sampleId: sample.id, identity: block.identity, initialSha256: sample.episodeSha256, parts: sample.parts },
  })
}
