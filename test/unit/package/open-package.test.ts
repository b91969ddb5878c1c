import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  findSample,
  FROZEN_BLOCKS,
  loadEvaluation,
  openPackage,
  PackageError,
  readEpisode,
  readPage,
  verifyEpisode,
} from '../../../src/package/index.ts'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture, type PackageFixtureOptions } from '../../helpers/package-fixture.ts'

const fixtures: PackageFixture[] = []
const extraDirs: string[] = []
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup()
  for (const dir of extraDirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function build(options: PackageFixtureOptions = {}): Promise<PackageFixture> {
  const fixture = await createPackageFixture(options)
  fixtures.push(fixture)
  return fixture
}

async function openError(dir: string, options: Parameters<typeof openPackage>[1] = {}): Promise<PackageError> {
  try {
    await openPackage(dir, options)
  } catch (error) {
    if (error instanceof PackageError) return error
    throw error
  }
  throw new Error('openPackage accepted a broken package')
}

describe('openPackage on a clean package', () => {
  it('returns typed blocks and samples with paths, hashes and pages in order', async () => {
    const fixture = await build({ taskText: 'Assemble.\r\n  with trailing space \n' })
    const pkg = await openPackage(fixture.root)
    expect(pkg.protocol).toBe('assembly-evaluation-v1')
    expect(pkg.frozenRelease).toBe(false)
    expect(pkg.sources).toEqual(['partnet', 'ikea-manualbook', 'assemblybench-manualbook', 'fantastic-breaks-none'])
    expect(pkg.blocks.map(block => block.name)).toEqual(['partnet-none', 'partnet-final-image', 'ikea-manualbook', 'assemblybench-manualbook', 'fantastic-breaks-none'])
    const ikea = pkg.blocks[2]
    expect(ikea?.taskText).toBe('Assemble.\r\n  with trailing space \n')
    expect(ikea?.referenceMode).toBe('manualbook')
    expect(ikea?.source).toBe('ikea-manualbook')
    const sample = ikea?.samples[0]
    expect(sample?.slug).toBe('sample-00')
    expect(sample?.episodePath).toBe(fixture.rel.episode('ikea-manualbook', 'sample-00'))
    expect(sample?.pages.map(page => [page.page, page.path])).toEqual([
      [1, fixture.rel.page('ikea-manualbook', 'sample-00', 1)],
      [2, fixture.rel.page('ikea-manualbook', 'sample-00', 2)],
    ])
    expect(pkg.blocks[0]?.samples[0]?.pages).toEqual([])
    expect(pkg.warnings.map(warning => warning.code)).toContain('PACKAGE_NOT_FROZEN_RELEASE')
  })

  it('uses slugs for sample ids with "/" and orders samples by code point', async () => {
    const blocks = defaultFixtureBlocks(1)
    const ikea = blocks[2]
    if (ikea !== undefined) ikea.samples = [{ id: 'Table/nesna' }, { id: 'Chair/reidar', category: 'Chair', band: 'low' }]
    const pkg = await openPackage((await build({ blocks })).root)
    const samples = pkg.blocks[2]?.samples ?? []
    expect(samples.map(sample => [sample.id, sample.slug, sample.category, sample.band])).toEqual([
      ['Chair/reidar', 'Chair--reidar', 'Chair', 'low'],
      ['Table/nesna', 'Table--nesna', null, null],
    ])
  })

  it('accepts and records the v2 protocol marker', async () => {
    const pkg = await openPackage((await build({ protocol: 'assembly-evaluation-v2' })).root)
    expect(pkg.protocol).toBe('assembly-evaluation-v2')
  })

  it('re-verifies one sample\'s episode, pages and evaluation right before use', async () => {
    const fixture = await build()
    const pkg = await openPackage(fixture.root)
    const sample = findSample(pkg, 'ikea-manualbook', 'sample-01')
    await expect(verifyEpisode(pkg, sample)).resolves.toBeUndefined()
    expect((await readEpisode(pkg, sample)).length).toBeGreaterThan(0)
    const page = sample.pages[0]
    if (page === undefined) throw new Error('fixture has pages')
    expect((await readPage(pkg, page)).length).toBeGreaterThan(0)
    const evaluation = await loadEvaluation(pkg, sample)
    expect(evaluation.sampleId).toBe('sample-01')
    expect(evaluation.points[0]?.length).toBe(3000)

    await fixture.writeBytes(sample.episodePath, 'tampered')
    await expect(verifyEpisode(pkg, sample)).rejects.toMatchObject({ code: 'PACKAGE_HASH_MISMATCH', file: sample.episodePath })
    await expect(readEpisode(pkg, sample)).rejects.toMatchObject({ code: 'PACKAGE_HASH_MISMATCH' })
    await fixture.writeBytes(page.path, 'tampered')
    await expect(readPage(pkg, page)).rejects.toMatchObject({ code: 'PACKAGE_HASH_MISMATCH' })
    const value = await fixture.readJson(sample.evaluationPath)
    await fixture.writeBytes(sample.evaluationPath, JSON.stringify(value))
    await expect(loadEvaluation(pkg, sample)).rejects.toMatchObject({ code: 'PACKAGE_HASH_MISMATCH', file: sample.evaluationPath })
  })

  it('rejects an unknown block or sample id (§2.1 rule 6)', async () => {
    const pkg = await openPackage((await build()).root)
    expect(() => findSample(pkg, 'ikea-manualbook', 'sample-99')).toThrow(/unknown sample id "sample-99"/)
    expect(() => findSample(pkg, 'nope', 'sample-00')).toThrow(PackageError)
  })
})

describe('openPackage rejections', () => {
  it('rejects a missing package directory and a missing benchmark.json', async () => {
    expect((await openError(join(tmpdir(), 'awb-no-such-package-dir'))).code).toBe('PACKAGE_NOT_FOUND')
    const fixture = await build()
    await rm(fixture.path('benchmark.json'))
    const error = await openError(fixture.root)
    expect(error.code).toBe('PACKAGE_FILE_MISSING')
    expect(error.file).toBe('benchmark.json')
  })

  it('rejects an invalid sample id in benchmark.json', async () => {
    const fixture = await build({
      edit: {
        benchmark: json => {
          const block = json.blocks[0]
          if (block?.samples['sample-00'] !== undefined) block.samples['bad id/..'] = block.samples['sample-00']
        },
      },
    })
    const error = await openError(fixture.root)
    expect(error.code).toBe('PACKAGE_INVALID_SAMPLE_ID')
    expect(error.message).toContain('benchmark.json')
    expect(error.field).toBe('blocks[0].samples.bad id/..')
  })

  it('rejects an unknown protocol marker in benchmark.json', async () => {
    const error = await openError((await build({ protocol: 'assembly-evaluation-v9' })).root)
    expect(error.code).toBe('PACKAGE_UNKNOWN_PROTOCOL')
    expect(error.field).toBe('evaluation.protocol')
  })

  it('rejects a task text that does not match prompt_sha256', async () => {
    const fixture = await build()
    await fixture.writeBytes(fixture.rel.task('ikea-manualbook'), 'Assemble.')
    const error = await openError(fixture.root)
    expect(error.code).toBe('PACKAGE_HASH_MISMATCH')
    expect(error.file).toBe('ikea-manualbook/task.txt')
    expect(error.message).toContain('prompt_sha256')
  })

  it('rejects an episode whose SHA-256 differs from config.json', async () => {
    const fixture = await build()
    const file = fixture.rel.episode('fantastic-breaks-none', 'sample-01')
    await fixture.writeBytes(file, 'corrupted')
    const error = await openError(fixture.root)
    expect(error.code).toBe('PACKAGE_HASH_MISMATCH')
    expect(error.file).toBe(file)
  })

  it('rejects a config.json that disagrees with benchmark.json', async () => {
    const parts = await openError((await build({ edit: { config: (block, json) => { if (block === 'assemblybench-manualbook' && json.samples['sample-00']) json.samples['sample-00'].parts = 9 } } })).root)
    expect(parts.code).toBe('PACKAGE_MISMATCH')
    expect(parts.field).toBe('samples.sample-00.parts')
    expect(parts.file).toContain('assemblybench-manualbook/source-3/fixture/config.json')
    const missing = await openError((await build({ edit: { config: (_, json) => { delete json.samples['sample-01'] } } })).root)
    expect(missing.message).toContain('missing from config.json')
    const identity = await openError((await build({ edit: { config: (_, json) => { json.identity.revision = 'b'.repeat(40) } } })).root)
    expect(identity.field).toBe('identity.revision')
  })

  it('rejects evaluation.json whose key does not match config.json', async () => {
    const error = await openError((await build({ edit: { evaluation: (block, id, json) => { if (block === 'partnet-none' && id === 'sample-01') json.key.initial_sha256 = '0'.repeat(64) } } })).root)
    expect(error.code).toBe('PACKAGE_MISMATCH')
    expect(error.field).toBe('key.initial_sha256')
    expect(error.file).toBe('partnet-none/source-1/fixture/cache/sample-01/evaluation.json')
  })

  it('rejects evaluation.json with non-finite numbers written as NaN', async () => {
    const fixture = await build()
    const file = fixture.rel.evaluation('partnet-none', 'sample-00')
    await fixture.writeBytes(file, '{"version": 1, "scale_divisor": NaN}')
    const error = await openError(fixture.root)
    expect(error.code).toBe('PACKAGE_INVALID_JSON')
    expect(error.message).toContain('non-finite')
  })

  it('rejects pages out of order and a page hash mismatch', async () => {
    const outOfOrder = await openError((await build({ edit: { pages: (block, _, json) => { if (block === 'ikea-manualbook') json.pages.reverse() } } })).root)
    expect(outOfOrder.code).toBe('PACKAGE_PAGES')
    expect(outOfOrder.message).toContain('1, 2, …, n in order')
    const fixture = await build()
    const page = fixture.rel.page('assemblybench-manualbook', 'sample-01', 2)
    await fixture.writeBytes(page, 'other bytes')
    const mismatch = await openError(fixture.root)
    expect(mismatch.code).toBe('PACKAGE_HASH_MISMATCH')
    expect(mismatch.file).toBe(page)
    expect(mismatch.message).toContain('source_sha256')
  })

  it('rejects a final-image block with more than one page and a page file name that is not page-NNNN', async () => {
    const twoPages = await openError((await build({ edit: { pages: (block, _, json) => { if (block === 'partnet-final-image') json.pages.push({ ...json.pages[0]!, page: 2, file: 'page-0002.png' }) } } })).root)
    expect(twoPages.message).toContain('exactly one page')
    const badName = await openError((await build({ edit: { pages: (block, _, json) => { if (block === 'ikea-manualbook') json.pages[0]!.file = '../../x.png' } } })).root)
    expect(badName.field).toBe('pages[0].file')
  })

  it('rejects duplicate block names and a source missing from sources', async () => {
    const duplicate = await openError((await build({ edit: { benchmark: json => { json.blocks[1]!.name = 'partnet-none' } } })).root)
    expect(duplicate.code).toBe('PACKAGE_DUPLICATE')
    const source = await openError((await build({ edit: { benchmark: json => { json.sources = ['partnet'] } } })).root)
    expect(source.field).toBe('blocks[2].source')
  })
})

describe('symbolic links (§2.1 rule 3)', () => {
  it('rejects a link that escapes the package root', async () => {
    const fixture = await build()
    const outside = await mkdtemp(join(tmpdir(), 'awb-outside-'))
    extraDirs.push(outside)
    const file = fixture.rel.task('partnet-none')
    await writeFile(join(outside, 'task.txt'), 'Assemble.\n')
    await rm(fixture.path(file))
    await symlink(join(outside, 'task.txt'), fixture.path(file))
    const error = await openError(fixture.root)
    expect(error.code).toBe('PACKAGE_LINK_ESCAPE')
    expect(error.file).toBe(file)
  })

  it('allows Hugging Face snapshot links into the blob store', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'awb-hf-'))
    extraDirs.push(cache)
    const repo = join(cache, 'datasets--AssemblyWorld--AssemblyWorldBench')
    const snapshot = join(repo, 'snapshots', 'f351f0f6e9f8a314ec7593e847d07a45b776481e')
    await mkdir(join(repo, 'blobs'), { recursive: true })
    await mkdir(join(repo, 'snapshots'), { recursive: true })
    const fixture = await build()
    await rename(fixture.root, snapshot)
    fixture.root = snapshot
    const file = fixture.rel.episode('partnet-none', 'sample-00')
    const blob = join(repo, 'blobs', 'b'.repeat(64))
    await rename(join(snapshot, ...file.split('/')), blob)
    await symlink(blob, join(snapshot, ...file.split('/')))
    const pkg = await openPackage(snapshot)
    expect(pkg.blocks[0]?.samples[0]?.episodePath).toBe(file)

    // The same link target outside a blobs/ folder is an escape.
    const elsewhere = join(repo, 'other')
    await mkdir(elsewhere)
    await rename(blob, join(elsewhere, 'x'))
    await rm(join(snapshot, ...file.split('/')))
    await symlink(join(elsewhere, 'x'), join(snapshot, ...file.split('/')))
    expect((await openError(snapshot)).code).toBe('PACKAGE_LINK_ESCAPE')
  })
})

describe('the frozen release (§9.2, §9.3)', () => {
  function frozenBlocks() {
    return defaultFixtureBlocks(20).map((block, index) => ({ ...block, configId: FROZEN_BLOCKS[index]?.configId ?? '' }))
  }

  it('recognises the release by the pinned benchmark.json hash and accepts matching files', async () => {
    const fixture = await build({ blocks: frozenBlocks(), index: false })
    const pkg = await openPackage(fixture.root, { frozenHashes: await fixture.frozenHashes() })
    expect(pkg.frozenRelease).toBe(true)
    expect(pkg.blocks.reduce((total, block) => total + block.samples.length, 0)).toBe(100)
  })

  it('rejects a listed file whose hash differs, with the reference wording', async () => {
    const fixture = await build({ blocks: frozenBlocks(), index: false })
    const frozenHashes = await fixture.frozenHashes()
    const file = fixture.rel.evaluation('ikea-manualbook', 'sample-07')
    const value = await fixture.readJson(file)
    await fixture.writeBytes(file, JSON.stringify(value))
    const error = await openError(fixture.root, { frozenHashes })
    expect(error.code).toBe('PACKAGE_FROZEN_MISMATCH')
    expect(error.file).toBe(file)
    expect(error.message).toContain('Expected frozen v1 metadata checksum')
  })

  it('enforces the frozen block layout only for the release', async () => {
    const fixture = await build()
    const error = await openError(fixture.root, { frozenHashes: await fixture.frozenHashes() })
    expect(error.code).toBe('PACKAGE_FROZEN_LAYOUT')
    expect(error.message).toContain('must have 20 samples')
    // The same package, not pinned, is accepted as "not the frozen release".
    const pkg = await openPackage(fixture.root, { frozenHashes: { 'benchmark.json': '0'.repeat(64) } })
    expect(pkg.frozenRelease).toBe(false)
  })

  it('rejects a release whose config ids differ from §3', async () => {
    const blocks = frozenBlocks()
    blocks[4] = { ...blocks[4]!, configId: 'prep-v1-s0-i0-000000000000' }
    const fixture = await build({ blocks, index: false })
    const error = await openError(fixture.root, { frozenHashes: await fixture.frozenHashes() })
    expect(error.code).toBe('PACKAGE_FROZEN_LAYOUT')
    expect(error.field).toBe('blocks[4].config_id')
  })
})

describe('index/samples.parquet (§15)', () => {
  it('is optional: a missing index is a warning', async () => {
    const pkg = await openPackage((await build({ index: false })).root)
    expect(pkg.warnings.map(warning => warning.code)).toContain('PACKAGE_INDEX_MISSING')
  })

  it('disagreement with benchmark.json is a warning only, and benchmark.json wins', async () => {
    const fixture = await build()
    const other = await build({ edit: { benchmark: json => { json.blocks[0]!.samples['sample-00']!.parts = 1 } }, blocks: defaultFixtureBlocks(2).map((block, index) => index === 0 ? { ...block, samples: [{ id: 'sample-00', partIds: ['p', 'q'] }, { id: 'sample-01' }] } : block) })
    // Put the index of a package with different part counts into the first package.
    await fixture.writeBytes('index/samples.parquet', await readFile(other.path('index/samples.parquet')))
    const pkg = await openPackage(fixture.root)
    const warnings = pkg.warnings.filter(warning => warning.code === 'PACKAGE_INDEX_DISAGREES')
    expect(warnings.some(warning => warning.message.includes('parts is 2 but benchmark.json says 1'))).toBe(true)
    expect(pkg.blocks[0]?.samples[0]?.parts).toBe(1)
  })

  it('an unreadable index is a warning', async () => {
    const fixture = await build()
    await fixture.writeBytes('index/samples.parquet', 'not parquet')
    const pkg = await openPackage(fixture.root)
    expect(pkg.warnings.map(warning => warning.code)).toContain('PACKAGE_INDEX_UNREADABLE')
  })
})
