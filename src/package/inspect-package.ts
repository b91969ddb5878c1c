// Runs every package check once, in order, reporting to a sink; shared by openPackage and validatePackage.
import { realpath, stat } from 'node:fs/promises'
import { isNotFoundError } from '../shared/fs-errors.ts'
import { checkBenchmark, type ParsedBlock } from './benchmark-rules.ts'
import { checkConfig, checkTaskText } from './block-checks.ts'
import { type CheckSink, ScopedSink } from './check-sink.ts'
import { PackageError } from './errors.ts'
import type { FrozenHashList } from './frozen-release.ts'
import { sha256Bytes } from './hashing.ts'
import { BENCHMARK_FILE, configPath, episodePath, evaluationPath } from './layout.ts'
import type { BenchmarkPackage, PackageBlock, PackageSample } from './model.ts'
import { type PackageFiles, parseJsonBytes, readPackageBytes } from './package-files.ts'
import { checkEpisodeFile, checkEvaluationFile, checkPages, type EpisodeCheck, type SampleCounts } from './sample-checks.ts'
import { checkSamplesIndex } from './samples-index.ts'
import type { EvaluationProtocol } from './protocol-constants.ts'

export interface InspectOptions {
  frozenHashes: FrozenHashList
  checkEpisode?: EpisodeCheck
  /** Called after each sample's files are checked: samples done so far and the package's total. */
  onProgress?: (done: number, total: number) => void
}

/** How much was looked at. */
export interface InspectCounts extends SampleCounts {
  blocks: number
  samples: number
}

export interface InspectResult {
  /** The package model; complete only when no problem was reported. */
  package: BenchmarkPackage | undefined
  frozenRelease: boolean
  protocol: EvaluationProtocol | undefined
  counts: InspectCounts
}

/**
 * Checks the package at `dir` file by file. In open mode the sink throws at the first problem; in validate
 * mode every problem is recorded and each later check runs on whatever earlier checks could establish.
 */
export async function inspectPackage(dir: string, options: InspectOptions, parent: CheckSink): Promise<InspectResult> {
  const sink = new ScopedSink(parent)
  const counts: InspectCounts = { blocks: 0, samples: 0, episodes: 0, evaluations: 0, pages: 0 }
  const empty: InspectResult = { package: undefined, frozenRelease: false, protocol: undefined, counts }
  const root = await resolveRoot(dir, sink)
  if (root === undefined) return empty
  const benchmarkBytes = await sink.captureAsync(() => readPackageBytes({ root, frozen: undefined }, BENCHMARK_FILE))
  if (benchmarkBytes === undefined) return empty

  // §9.3: the published release is recognised by the pinned hash of benchmark.json.
  const frozenRelease = options.frozenHashes[BENCHMARK_FILE] === sha256Bytes(benchmarkBytes)
  const files: PackageFiles = { root, frozen: frozenRelease ? options.frozenHashes : undefined }
  if (!frozenRelease) {
    sink.warning({ code: 'PACKAGE_NOT_FROZEN_RELEASE', file: BENCHMARK_FILE, message: 'not the frozen release: benchmark.json does not have the pinned hash, so the package is verified by its internal hashes only' })
  }
  const value = parseJsonBytes(BENCHMARK_FILE, benchmarkBytes, sink)
  const benchmark = value === undefined ? undefined : checkBenchmark(value, { isFrozenRelease: frozenRelease }, sink)
  if (benchmark === undefined) return { ...empty, frozenRelease }

  const blocks: PackageBlock[] = []
  const total = benchmark.blocks.reduce((sum, block) => sum + block.samples.length, 0)
  const progress = options.onProgress === undefined ? undefined : () => options.onProgress?.(counts.samples, total)
  for (const block of benchmark.blocks) {
    counts.blocks += 1
    const checked = await inspectBlock(files, block, options, sink, counts, progress)
    if (checked !== undefined) blocks.push(checked)
  }
  await checkSamplesIndex(files, benchmark.blocks, sink)

  const isComplete = sink.isClean && benchmark.protocol !== undefined && blocks.length === benchmark.blocks.length
  const result: BenchmarkPackage | undefined = isComplete && benchmark.protocol !== undefined
    ? { root, benchmark: benchmark.benchmark, sources: benchmark.sources, protocol: benchmark.protocol, frozenRelease, blocks, warnings: [] }
    : undefined
  return { package: result, frozenRelease, protocol: benchmark.protocol, counts }
}

async function resolveRoot(dir: string, sink: CheckSink): Promise<string | undefined> {
  try {
    if ((await stat(dir)).isDirectory()) return await realpath(dir)
  } catch (error) {
    // Absence is reported below as a missing package directory; anything else (permission denied) is not absence.
    if (!isNotFoundError(error)) {
      sink.problem(new PackageError('PACKAGE_FILE_UNREADABLE', {
        file: dir,
        message: `the benchmark package directory cannot be read (${error instanceof Error ? error.message : String(error)})`,
        fix: 'Check the permissions of the folder and of the folders above it',
        cause: error,
      }))
      return undefined
    }
  }
  sink.problem(new PackageError('PACKAGE_NOT_FOUND', {
    file: dir,
    message: 'the benchmark package directory does not exist or is not a directory',
    fix: 'Pass the folder that contains benchmark.json',
  }))
  return undefined
}

async function inspectBlock(files: PackageFiles, block: ParsedBlock, options: InspectOptions, parent: CheckSink, counts: InspectCounts, progress: (() => void) | undefined): Promise<PackageBlock | undefined> {
  const sink = new ScopedSink(parent)
  const taskText = await checkTaskText(files, block, sink)
  const config = await checkConfig(files, block, sink)
  const samples: PackageSample[] = []
  for (const sample of block.samples) {
    counts.samples += 1
    const episode = episodePath(block.folders, sample.slug)
    counts.episodes += 1
    const isEpisodeOk = await checkEpisodeFile(files, episode, sample.record.sha256, options.checkEpisode, sink)
    const evaluationFile = evaluationPath(block.folders, sample.slug)
    counts.evaluations += 1
    const evaluation = await checkEvaluationFile(files, evaluationFile, { sample, identity: config?.identity }, sink)
    const pages = await checkPages(files, block, sample, sink)
    counts.pages += pages?.length ?? 0
    progress?.()
    if (!isEpisodeOk || evaluation === undefined || pages === undefined) continue
    samples.push({
      block: block.record.name,
      id: sample.id,
      slug: sample.slug,
      category: sample.record.category ?? null,
      parts: sample.record.parts,
      band: sample.record.band ?? null,
      episodeId: sample.record.episode_id,
      episodeSha256: sample.record.sha256,
      episodePath: episode,
      evaluationPath: evaluationFile,
      evaluationSha256: evaluation.sha256,
      pages,
    })
  }
  if (!sink.isClean || taskText === undefined || config === undefined) return undefined
  const { record } = block
  return {
    name: record.name,
    source: record.source,
    dataset: record.dataset,
    repoId: record.repo_id,
    revision: record.revision,
    configId: record.config_id,
    referenceMode: record.reference_mode,
    promptFile: record.prompt_file,
    promptSha256: record.prompt_sha256,
    taskText,
    configPath: configPath(block.folders),
    identity: config.identity,
    samples,
  }
}
