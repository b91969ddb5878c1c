import { afterEach, describe, expect, it } from 'vitest'
import { validatePackage } from '../../../src/package/index.ts'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture, type PackageFixtureOptions, sha256 } from '../../helpers/package-fixture.ts'

const fixtures: PackageFixture[] = []
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup()
})

async function problemsOf(options: PackageFixtureOptions, breakFiles?: (fixture: PackageFixture) => Promise<void>) {
  const fixture = await createPackageFixture({ index: false, ...options })
  fixtures.push(fixture)
  await breakFiles?.(fixture)
  const report = await validatePackage(fixture.root)
  return { report, fixture, found: report.problems.map(problem => `${problem.code} ${problem.file} ${problem.field ?? ''}`) }
}

const IKEA_CONFIG = 'ikea-manualbook/source-2/fixture/config.json'

describe('one rule, one problem: benchmark.json (§5)', () => {
  const cases: [string, PackageFixtureOptions['edit'], string][] = [
    ['data must equal name', { benchmark: json => { json.blocks[2]!.data = 'elsewhere' } }, 'PACKAGE_MISMATCH benchmark.json blocks[2].data'],
    ['prompt_file must be <block>/task.txt', { benchmark: json => { json.blocks[2]!.prompt_file = 'ikea-manualbook/other.txt' } }, 'PACKAGE_MISMATCH benchmark.json blocks[2].prompt_file'],
    ['(repo_id, config_id, reference_mode) unique', { benchmark: json => { json.blocks[4]!.repo_id = 'AssemblyWorld/source-1' } }, 'PACKAGE_DUPLICATE benchmark.json blocks[4]'],
    ['evaluation statement', { benchmark: json => { json.evaluation.similarity_threshold = 0.001 } }, 'PACKAGE_SCHEMA benchmark.json evaluation.similarity_threshold'],
    ['version 1', { benchmark: json => { json.version = 2 } }, 'PACKAGE_SCHEMA benchmark.json version'],
    ['samples non-empty', { benchmark: json => { json.blocks[0]!.samples = {} } }, 'PACKAGE_SCHEMA benchmark.json blocks[0].samples'],
  ]
  it.each(cases)('%s', async (_, edit, expected) => {
    const { found } = await problemsOf({ edit })
    expect(found[0]?.trim()).toBe(expected)
  })

  it('rejects two sample ids with the same slug', async () => {
    const blocks = defaultFixtureBlocks(1)
    blocks[4] = { ...blocks[4]!, samples: [{ id: '00/00017' }, { id: '00--00017' }] }
    const { found } = await problemsOf({ blocks })
    expect(found.some(line => line.startsWith('PACKAGE_DUPLICATE benchmark.json blocks[4].samples.00/00017'))).toBe(true)
  })

  it('accepts a non-awa episode id outside the release with a warning', async () => {
    const { report } = await problemsOf({ edit: {
      benchmark: json => { json.blocks[0]!.samples['sample-00']!.episode_id = 'fixture' },
      config: (block, json) => { if (block === 'partnet-none') json.samples['sample-00']!.episode_id = 'fixture' },
    } })
    expect(report.ok).toBe(true)
    expect(report.warnings.map(warning => warning.code)).toContain('PACKAGE_EPISODE_ID_FORMAT')
  })
})

describe('one rule, one problem: config.json (§6)', () => {
  const cases: [string, PackageFixtureOptions['edit'], string][] = [
    ['config_id equals the block', { config: (block, json) => { if (block === 'ikea-manualbook') json.config_id = 'other' } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} config_id`],
    ['identity.dataset equals repo_id', { config: (block, json) => { if (block === 'ikea-manualbook') json.identity.dataset = 'AssemblyWorld/x' } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} identity.dataset`],
    ['identity.protocol', { config: (block, json) => { if (block === 'ikea-manualbook') json.identity.protocol = 'assembly-preparation-v2' } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} identity.protocol`],
    ['identity.contract', { config: (block, json) => { if (block === 'ikea-manualbook') json.identity.contract = 'x' } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} identity.contract`],
    ['identity.engine', { config: (block, json) => { if (block === 'ikea-manualbook') json.identity.engine = '3.11.0' } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} identity.engine`],
    ['identity.preparation', { config: (block, json) => { if (block === 'ikea-manualbook') json.identity.preparation.fps_points = 999 } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} identity.preparation`],
    ['episode file name', { config: (block, json) => { if (block === 'ikea-manualbook') json.samples['sample-01']!.episode = 'x.zip' } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} samples.sample-01.episode`],
    ['sha256 equal', { config: (block, json) => { if (block === 'ikea-manualbook') json.samples['sample-01']!.sha256 = 'f'.repeat(64) } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} samples.sample-01.sha256`],
    ['no extra samples', { config: (block, json) => { if (block === 'ikea-manualbook') json.samples.extra = { ...json.samples['sample-01']! } } }, `PACKAGE_MISMATCH ${IKEA_CONFIG} samples.extra`],
  ]
  it.each(cases)('%s', async (_, edit, expected) => {
    const { found } = await problemsOf({ edit })
    expect(found.map(line => line.trim())).toContain(expected)
  })

  it('a config.json whose identity differs from evaluation key.identity fails the evaluations too', async () => {
    const { found } = await problemsOf({ edit: { config: (block, json) => { if (block === 'ikea-manualbook') json.identity.producer = { backend: 'other' } } } })
    expect(found.filter(line => line.includes('key.identity'))).toHaveLength(2)
  })
})

describe('one rule, one problem: task.txt, pages.json', () => {
  it('rejects a task text that is not UTF-8, even with a matching hash', async () => {
    const { found } = await problemsOf({ taskText: '\u00ff' }, async fixture => {
      const bytes = new Uint8Array([0xff, 0xfe])
      await fixture.writeBytes(fixture.rel.task('partnet-none'), bytes)
      const json = await fixture.readJson('benchmark.json') as { blocks: { prompt_sha256: string }[] }
      json.blocks[0]!.prompt_sha256 = sha256(bytes)
      await fixture.writeJson('benchmark.json', json)
    })
    expect(found.map(line => line.trim())).toEqual(['PACKAGE_TASK_ENCODING partnet-none/task.txt'])
  })

  it('rejects a pages.json whose reference_mode differs from the block', async () => {
    const { found } = await problemsOf({ edit: { pages: (block, id, json) => { if (block === 'partnet-final-image' && id === 'sample-00') json.reference_mode = 'manualbook' } } })
    expect(found.map(line => line.trim())).toEqual(['PACKAGE_PAGES partnet-final-image/source-1/fixture/cache/sample-00/reference/final-image/pages.json reference_mode'])
  })
})
