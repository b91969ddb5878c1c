// Builds small benchmark packages (the §16 synthetic shape) in temporary folders for tests; no checks here.
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import type { Episode } from '../../src/episode/index.ts'
import { archiveOf, buildSetupEpisode } from './episode-fixture.ts'
import { mulberry32Uint32 } from '../../src/shared/mulberry32.ts'

export type ReferenceModeName = 'none' | 'final-image' | 'manualbook'

export interface FixtureSampleSpec {
  id: string
  /** Part ids in code-point order; default `['p']` (§16). */
  partIds?: string[]
  category?: string | null
  band?: string | null
}

export interface FixtureBlockSpec {
  name: string
  source: string
  repoId: string
  configId: string
  referenceMode: ReferenceModeName
  samples: FixtureSampleSpec[]
  /** Pages per sample for manualbook blocks (final-image always has 1); default 2. */
  pageCount?: number
}

/** Shapes the fixture writes; the index signatures let tests add or break any field. */
export interface FixtureSampleRecord { category: string | null; parts: number; band: string | null; sha256: string; episode_id: string; [key: string]: unknown }
export interface FixtureBlockRecord {
  name: string; source: string; dataset: string; repo_id: string; revision: string; config_id: string; data: string
  reference_mode: string; prompt_file: string; prompt_sha256: string; samples: Record<string, FixtureSampleRecord>; [key: string]: unknown
}
export interface FixtureBenchmark {
  version: number; benchmark: string; sources: string[]; blocks: FixtureBlockRecord[]
  evaluation: { protocol: string; similarity_policy: string; similarity_threshold: number }; [key: string]: unknown
}
export interface FixtureIdentity { dataset: string; revision: string; protocol: string; preparation: Record<string, number>; producer: Record<string, unknown>; contract: string; engine: string; [key: string]: unknown }
export interface FixtureConfig {
  version: number; config_id: string; identity: FixtureIdentity
  samples: Record<string, { episode: string; episode_id: string; sha256: string; parts: number; [key: string]: unknown }>; [key: string]: unknown
}
export interface FixtureEvaluation {
  version: number
  key: { sample_id: string; identity: FixtureIdentity; initial_sha256: string; parts: number; preparation_protocol: string; evaluation_protocol: string; similarity: Record<string, unknown>; [key: string]: unknown }
  part_ids: string[]; scale_divisor: number; points: Record<string, number[][]>; gt_poses: Record<string, number[]>
  equivalence: { groups: string[][]; protocol: Record<string, unknown>; [key: string]: unknown }; [key: string]: unknown
}
export interface FixturePages {
  dataset: string; revision: string; reference_mode: string
  pages: { page: number; file: string; source_sha256: string; image_sha256: string; [key: string]: unknown }[]; [key: string]: unknown
}

export interface PackageFixtureOptions {
  /** Default: the five real block names with `samplesPerBlock` samples each. */
  blocks?: FixtureBlockSpec[]
  /** Samples per default block; default 2. */
  samplesPerBlock?: number
  /** Marker written to benchmark.json and every evaluation.json; default `assembly-evaluation-v1`. */
  protocol?: string
  /** Write `index/samples.parquet`; default true. */
  index?: boolean
  /** Task text of every block; default `"Assemble.\n"`. */
  taskText?: string
  /** Hooks that change a JSON file just before it is written (hashes downstream are computed afterwards). */
  edit?: {
    benchmark?: (json: FixtureBenchmark) => void
    config?: (block: string, json: FixtureConfig) => void
    evaluation?: (block: string, sampleId: string, json: FixtureEvaluation) => void
    pages?: (block: string, sampleId: string, json: FixturePages) => void
    /** Changes the initial episode before it is encoded (the package hashes then match the changed archive). */
    episode?: (block: string, sampleId: string, episode: Episode) => void
  }
}

export interface PackageFixture {
  root: string
  blocks: FixtureBlockSpec[]
  /** Absolute path of a package-relative path. */
  path(rel: string): string
  rel: {
    task(block: string): string
    config(block: string): string
    episode(block: string, sampleId: string): string
    evaluation(block: string, sampleId: string): string
    pagesJson(block: string, sampleId: string): string
    page(block: string, sampleId: string, page: number): string
  }
  readJson(rel: string): Promise<unknown>
  writeJson(rel: string, value: unknown): Promise<void>
  writeBytes(rel: string, bytes: Uint8Array | string): Promise<void>
  /** A frozen list (path → SHA-256) of this package's metadata files, as §16 replaces the real one. */
  frozenHashes(): Promise<Record<string, string>>
  cleanup(): Promise<void>
}

export const FIXTURE_BLOCK_NAMES = ['partnet-none', 'partnet-final-image', 'ikea-manualbook', 'assemblybench-manualbook', 'fantastic-breaks-none'] as const
const REVISION = 'a'.repeat(40)
const SIMILARITY = { policy: 'geometry', threshold: 0.0001, max_iterations: 100, improvement_tolerance: 1e-9 }

/** The §16 blocks: real names, sources `partnet` + the three other block names, `AssemblyWorld/source-N`. */
export function defaultFixtureBlocks(samplesPerBlock = 2): FixtureBlockSpec[] {
  const modes: ReferenceModeName[] = ['none', 'final-image', 'manualbook', 'manualbook', 'none']
  return FIXTURE_BLOCK_NAMES.map((name, index) => ({
    name,
    source: index < 2 ? 'partnet' : name,
    repoId: `AssemblyWorld/source-${index < 2 ? 1 : index}`,
    configId: 'fixture',
    referenceMode: modes[index] ?? 'none',
    samples: Array.from({ length: samplesPerBlock }, (_, i) => ({ id: `sample-${String(i).padStart(2, '0')}` })),
  }))
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Seeded standard-normal points (mulberry32 + Box–Muller), `count` rows of 3. */
export function seededPoints(seed: number, count = 1000): number[][] {
  const next = mulberry32Uint32(seed)
  // (0, 1]: never 0, so Box–Muller's log is finite.
  const uniform = (): number => (next() + 1) / 4294967297
  const normal = (): number => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())
  return Array.from({ length: count }, () => [normal(), normal(), normal()])
}

export async function createPackageFixture(options: PackageFixtureOptions = {}): Promise<PackageFixture> {
  const root = await mkdtemp(join(tmpdir(), 'awb-package-'))
  const blocks = options.blocks ?? defaultFixtureBlocks(options.samplesPerBlock ?? 2)
  const protocol = options.protocol ?? 'assembly-evaluation-v1'
  const taskText = options.taskText ?? 'Assemble.\n'
  const path = (rel: string): string => join(root, ...rel.split('/'))
  const write = async (rel: string, bytes: Uint8Array | string): Promise<void> => {
    await mkdir(dirname(path(rel)), { recursive: true })
    await writeFile(path(rel), bytes)
  }
  const writeJson = (rel: string, value: unknown): Promise<void> => write(rel, `${JSON.stringify(value, null, 2)}\n`)
  const find = (name: string): FixtureBlockSpec => {
    const block = blocks.find(candidate => candidate.name === name)
    if (block === undefined) throw new Error(`fixture has no block ${name}`)
    return block
  }
  const slug = (id: string): string => id.split('/').join('--')
  const dir = (name: string): string => {
    const block = find(name)
    return `${block.name}/${block.repoId.split('/').pop() ?? ''}/${block.configId}`
  }
  const refDir = (name: string, id: string): string => `${dir(name)}/cache/${slug(id)}/reference/${find(name).referenceMode}`
  const rel = {
    task: (name: string) => `${name}/task.txt`,
    config: (name: string) => `${dir(name)}/config.json`,
    episode: (name: string, id: string) => `${dir(name)}/${slug(id)}.episode.zip`,
    evaluation: (name: string, id: string) => `${dir(name)}/cache/${slug(id)}/evaluation.json`,
    pagesJson: (name: string, id: string) => `${refDir(name, id)}/pages.json`,
    page: (name: string, id: string, page: number) => `${refDir(name, id)}/page-${String(page).padStart(4, '0')}.png`,
  }

  const benchmark: FixtureBenchmark = {
    version: 1,
    benchmark: 'awb-fixture',
    sources: [...new Set(blocks.map(block => block.source))],
    blocks: [],
    evaluation: { protocol, similarity_policy: 'geometry', similarity_threshold: 0.0001 },
    aggregation: { rule: 'mean over sources of the mean over that source\'s blocks' },
    provenance: { fixture: true },
  }
  const indexRows: { block: string; sample_id: string; category: string | null; parts: number; band: string | null; sha256: string; episode_id: string }[] = []
  for (const block of blocks) {
    await write(rel.task(block.name), taskText)
    const identity: FixtureIdentity = {
      dataset: block.repoId,
      revision: REVISION,
      protocol: 'assembly-preparation-v1',
      preparation: { surface_points: 4096, fps_points: 1000, sampling_seed: 0, initialization_seed: 0, min_gap: 0.02 },
      producer: { backend: 'fixture' },
      contract: '3dwebagent-runtime-1',
      engine: '3.12.0',
    }
    const config: FixtureConfig = { version: 1, config_id: block.configId, identity, samples: {} }
    const records: Record<string, FixtureSampleRecord> = {}
    for (const [sampleIndex, sample] of block.samples.entries()) {
      const partIds = sample.partIds ?? ['p']
      const episodeId = `awa-${sha256(`${block.name}/${sample.id}`)}`
      // A real setup episode (one box body per part), so episode-level checks and scoring run on it too.
      const episodeBytes = await archiveOf(buildSetupEpisode({
        parts: partIds.length,
        sourcePartIds: partIds,
        manifest: { id: episodeId, name: `${block.repoId.split('/').at(-1)} / ${sample.id}` },
        mutate: episode => options.edit?.episode?.(block.name, sample.id, episode),
      }))
      await write(rel.episode(block.name, sample.id), episodeBytes)
      const episodeSha = sha256(episodeBytes)
      records[sample.id] = { category: sample.category ?? null, parts: partIds.length, band: sample.band ?? null, sha256: episodeSha, episode_id: episodeId }
      config.samples[sample.id] = { episode: `${slug(sample.id)}.episode.zip`, episode_id: episodeId, sha256: episodeSha, parts: partIds.length }
      indexRows.push({ block: block.name, sample_id: sample.id, category: sample.category ?? null, parts: partIds.length, band: sample.band ?? null, sha256: episodeSha, episode_id: episodeId })
      const evaluation: FixtureEvaluation = {
        version: 1,
        key: { sample_id: sample.id, identity, initial_sha256: episodeSha, parts: partIds.length, preparation_protocol: 'assembly-preparation-v1', evaluation_protocol: protocol, similarity: SIMILARITY },
        provenance: { created_at: 'fixture', code_commit: null, dataset: block.repoId },
        part_ids: partIds,
        scale_divisor: 1,
        points: Object.fromEntries(partIds.map((id, i) => [id, seededPoints(12 + sampleIndex * 31 + i)])),
        gt_poses: Object.fromEntries(partIds.map(id => [id, [0, 0, 0, 1, 0, 0, 0]])),
        equivalence: { policy: 'geometry', protocol: SIMILARITY, groups: partIds.map(id => [id]) },
      }
      options.edit?.evaluation?.(block.name, sample.id, evaluation)
      await writeJson(rel.evaluation(block.name, sample.id), evaluation)
      if (block.referenceMode !== 'none') {
        const count = block.referenceMode === 'final-image' ? 1 : (block.pageCount ?? 2)
        const pages: FixturePages = { dataset: block.repoId, revision: REVISION, reference_mode: block.referenceMode, pages: [] }
        for (let page = 1; page <= count; page += 1) {
          const bytes = `\u0089PNG fixture page ${page} of ${block.name} ${sample.id}`
          await write(rel.page(block.name, sample.id, page), bytes)
          pages.pages.push({ page, file: `page-${String(page).padStart(4, '0')}.png`, source_sha256: sha256(bytes), image_sha256: sha256(bytes), kind: 'step' })
        }
        options.edit?.pages?.(block.name, sample.id, pages)
        await writeJson(rel.pagesJson(block.name, sample.id), pages)
      }
    }
    options.edit?.config?.(block.name, config)
    await writeJson(rel.config(block.name), config)
    benchmark.blocks.push({
      name: block.name,
      source: block.source,
      dataset: block.repoId.split('/').pop() ?? '',
      repo_id: block.repoId,
      revision: REVISION,
      config_id: block.configId,
      data: block.name,
      reference_mode: block.referenceMode,
      prompt_file: rel.task(block.name),
      prompt_sha256: sha256(taskText),
      samples: records,
    })
  }
  options.edit?.benchmark?.(benchmark)
  await writeJson('benchmark.json', benchmark)
  if (options.index ?? true) {
    const column = <K extends keyof (typeof indexRows)[number]>(name: K) => indexRows.map(row => row[name])
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'block', data: column('block'), type: 'STRING' },
        { name: 'sample_id', data: column('sample_id'), type: 'STRING' },
        { name: 'category', data: column('category'), type: 'STRING' },
        { name: 'parts', data: column('parts'), type: 'INT32' },
        { name: 'band', data: column('band'), type: 'STRING' },
        { name: 'sha256', data: column('sha256'), type: 'STRING' },
        { name: 'episode_id', data: column('episode_id'), type: 'STRING' },
      ],
    })
    await write('index/samples.parquet', new Uint8Array(buffer))
  }

  return {
    root,
    blocks,
    path,
    rel,
    readJson: async (file: string) => JSON.parse(await readFile(path(file), 'utf8')) as unknown,
    writeJson,
    writeBytes: write,
    async frozenHashes() {
      const list: Record<string, string> = { 'benchmark.json': sha256(await readFile(path('benchmark.json'))) }
      for (const block of blocks) {
        list[rel.config(block.name)] = sha256(await readFile(path(rel.config(block.name))))
        for (const sample of block.samples) {
          list[rel.evaluation(block.name, sample.id)] = sha256(await readFile(path(rel.evaluation(block.name, sample.id))))
          if (block.referenceMode !== 'none') list[rel.pagesJson(block.name, sample.id)] = sha256(await readFile(path(rel.pagesJson(block.name, sample.id))))
        }
      }
      return list
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
}
