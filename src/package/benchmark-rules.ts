// Rules of benchmark.json (§5, §3 for the frozen release): blocks, sources, sample ids; reads no file.
import type { CheckSink } from './check-sink.ts'
import { PackageError } from './errors.ts'
import { FROZEN_BLOCKS, FROZEN_SAMPLES_PER_BLOCK, FROZEN_TOTAL_SAMPLES } from './frozen-release.ts'
import { compareCodePoints } from '../shared/code-points.ts'
import { type BlockFolders, BENCHMARK_FILE, repoTail, taskPath } from './layout.ts'
import { isValidSampleId, sampleSlug } from './paths.ts'
import { EVALUATION_PROTOCOLS, type EvaluationProtocol, isEvaluationProtocol } from './protocol-constants.ts'
import { parseWithSchema } from './schema-problems.ts'
import { BenchmarkSchema, BlockSchema, type BlockRecord, type SampleRecord, SampleRecordSchema } from './schemas.ts'

/** `awa-` + 64 hex: the release's episode ids (§5.2). */
const EPISODE_ID = /^awa-[0-9a-f]{64}$/

export interface ParsedSample {
  id: string
  slug: string
  record: SampleRecord
}

export interface ParsedBlock {
  /** Index in `benchmark.json` `blocks`, for field paths. */
  index: number
  record: BlockRecord
  folders: BlockFolders
  /** Valid samples, in code-point order of the id. */
  samples: ParsedSample[]
}

export interface ParsedBenchmark {
  benchmark: string
  sources: string[]
  /** Undefined when the marker is unknown (already reported). */
  protocol: EvaluationProtocol | undefined
  blocks: ParsedBlock[]
}

/**
 * Checks the parsed JSON of benchmark.json. Blocks and samples are parsed one by one, so one broken block
 * is reported and skipped while the others are still checked. Undefined when the top level is unusable.
 */
export function checkBenchmark(value: unknown, options: { isFrozenRelease: boolean }, sink: CheckSink): ParsedBenchmark | undefined {
  const file = BENCHMARK_FILE
  const top = parseWithSchema(BenchmarkSchema, value, { file, what: 'benchmark.json' }, sink)
  if (top === undefined) return undefined
  const fail = (code: 'PACKAGE_MISMATCH' | 'PACKAGE_DUPLICATE' | 'PACKAGE_SCHEMA' | 'PACKAGE_FROZEN_LAYOUT', field: string, message: string, fix: string): void =>
    sink.problem(new PackageError(code, { file, field, message, fix }))

  const marker = top.evaluation.protocol
  const protocol = isEvaluationProtocol(marker) ? marker : undefined
  if (protocol === undefined) {
    sink.problem(new PackageError('PACKAGE_UNKNOWN_PROTOCOL', {
      file,
      field: 'evaluation.protocol',
      message: `unknown evaluation protocol marker ${JSON.stringify(marker)}: expected ${JSON.stringify(EVALUATION_PROTOCOLS[0])} (or its alias ${JSON.stringify(EVALUATION_PROTOCOLS[1])})`,
      fix: 'Use a package built for the assembly-evaluation protocol',
    }))
  }

  const blocks: ParsedBlock[] = []
  const names = new Set<string>()
  const triples = new Set<string>()
  top.blocks.forEach((raw, index) => {
    const field = `blocks[${index}]`
    const record = parseWithSchema(BlockSchema, raw, { file, field, what: 'block' }, sink)
    if (record === undefined) return
    const isDuplicate = names.has(record.name)
    if (isDuplicate) fail('PACKAGE_DUPLICATE', `${field}.name`, `block name ${JSON.stringify(record.name)} is used twice: block names must be unique`, 'Give every block its own name')
    names.add(record.name)
    const triple = JSON.stringify([record.repo_id, record.config_id, record.reference_mode])
    if (triples.has(triple)) fail('PACKAGE_DUPLICATE', field, `(repo_id, config_id, reference_mode) ${triple} is used by two blocks: the triple must be unique`, 'Remove the duplicated block')
    triples.add(triple)
    if (record.data !== record.name) sink.problem(new PackageError('PACKAGE_MISMATCH', { file, field: `${field}.data`, message: `data ${JSON.stringify(record.data)} must equal the block name ${JSON.stringify(record.name)}`, fix: 'Set data to the block name (it is the block\'s folder)' }))
    const folders: BlockFolders = { data: record.data, repoTail: repoTail(record.repo_id), configId: record.config_id }
    if (record.prompt_file !== taskPath(folders)) sink.problem(new PackageError('PACKAGE_MISMATCH', { file, field: `${field}.prompt_file`, message: `prompt_file must be ${JSON.stringify(taskPath(folders))}, got ${JSON.stringify(record.prompt_file)}`, fix: 'Point prompt_file at the block\'s task.txt' }))
    if (!top.sources.includes(record.source)) sink.problem(new PackageError('PACKAGE_MISMATCH', { file, field: `${field}.source`, message: `source ${JSON.stringify(record.source)} is not listed in the top-level sources ${JSON.stringify(top.sources)}`, fix: 'Add the source to sources or fix the block\'s source' }))
    const samples = checkSamples(record, field, options, sink)
    // A second block of the same name would read the same folder: report it once, check the first only.
    if (!isDuplicate) blocks.push({ index, record, folders, samples })
  })
  if (options.isFrozenRelease) checkFrozenLayout(blocks.map(block => block.record), top.blocks.length, fail)
  return { benchmark: top.benchmark, sources: top.sources, protocol, blocks }
}

function checkSamples(record: BlockRecord, field: string, options: { isFrozenRelease: boolean }, sink: CheckSink): ParsedSample[] {
  const file = BENCHMARK_FILE
  const ids = Object.keys(record.samples).sort(compareCodePoints)
  if (ids.length === 0) {
    sink.problem(new PackageError('PACKAGE_SCHEMA', { file, field: `${field}.samples`, message: 'samples is empty: every block needs at least one sample', fix: 'List the block\'s samples' }))
  }
  const slugs = new Map<string, string>()
  const samples: ParsedSample[] = []
  for (const id of ids) {
    const sampleField = `${field}.samples.${id}`
    if (!isValidSampleId(id)) {
      sink.problem(new PackageError('PACKAGE_INVALID_SAMPLE_ID', { file, field: sampleField, message: `sample id ${JSON.stringify(id)} is invalid: every "/"-separated segment must match [A-Za-z0-9_.-]+ and must not be "." or ".."`, fix: 'Use the dataset\'s own sample id' }))
      continue
    }
    const slug = sampleSlug(id)
    const other = slugs.get(slug)
    if (other !== undefined) {
      sink.problem(new PackageError('PACKAGE_DUPLICATE', { file, field: sampleField, message: `samples ${JSON.stringify(other)} and ${JSON.stringify(id)} have the same slug ${JSON.stringify(slug)}, so their files would collide`, fix: 'Rename one of the samples' }))
      continue
    }
    slugs.set(slug, id)
    const sample = parseWithSchema(SampleRecordSchema, record.samples[id], { file, field: sampleField, what: 'sample record' }, sink)
    if (sample === undefined) continue
    if (!EPISODE_ID.test(sample.episode_id)) {
      const message = `episode_id ${JSON.stringify(sample.episode_id)} is not of the form awa-<64 hex>`
      if (options.isFrozenRelease) sink.problem(new PackageError('PACKAGE_SCHEMA', { file, field: `${sampleField}.episode_id`, message, fix: 'Restore benchmark.json from the pinned revision' }))
      else sink.warning({ code: 'PACKAGE_EPISODE_ID_FORMAT', file, message: `${sampleField}.episode_id: ${message} (accepted outside the published release)` })
    }
    samples.push({ id, slug, record: sample })
  }
  return samples
}

type Fail = (code: 'PACKAGE_FROZEN_LAYOUT', field: string, message: string, fix: string) => void

/** §3 / §9.3: only the published release must have the five frozen blocks, 20 samples each, the frozen config ids. */
function checkFrozenLayout(blocks: BlockRecord[], declaredBlocks: number, fail: Fail): void {
  const fix = 'The published release must have exactly the blocks of §3: restore benchmark.json from the pinned revision'
  const names = blocks.map(block => block.name)
  const frozenNames = FROZEN_BLOCKS.map(block => block.name)
  if (declaredBlocks !== FROZEN_BLOCKS.length || names.join('\n') !== frozenNames.join('\n')) {
    fail('PACKAGE_FROZEN_LAYOUT', 'blocks', `blocks must be exactly ${frozenNames.join(', ')} in this order, got ${names.join(', ')}`, fix)
  }
  let total = 0
  blocks.forEach((block, index) => {
    const count = Object.keys(block.samples).length
    total += count
    const frozen = FROZEN_BLOCKS.find(entry => entry.name === block.name)
    if (count !== FROZEN_SAMPLES_PER_BLOCK) fail('PACKAGE_FROZEN_LAYOUT', `blocks[${index}].samples`, `block ${block.name} must have ${FROZEN_SAMPLES_PER_BLOCK} samples, got ${count}`, fix)
    if (frozen !== undefined && block.config_id !== frozen.configId) fail('PACKAGE_FROZEN_LAYOUT', `blocks[${index}].config_id`, `block ${block.name} must have config_id ${frozen.configId}, got ${block.config_id}`, fix)
  })
  if (total !== FROZEN_TOTAL_SAMPLES) fail('PACKAGE_FROZEN_LAYOUT', 'blocks', `the release must have ${FROZEN_TOTAL_SAMPLES} samples in total, got ${total}`, fix)
}
