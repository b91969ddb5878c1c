import { rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { validatePackage } from '../../../src/package/index.ts'
import { createPackageFixture, type PackageFixture, type PackageFixtureOptions } from '../../helpers/package-fixture.ts'

const fixtures: PackageFixture[] = []
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup()
})

async function build(options: PackageFixtureOptions = {}): Promise<PackageFixture> {
  const fixture = await createPackageFixture(options)
  fixtures.push(fixture)
  return fixture
}

describe('validatePackage', () => {
  it('reports a clean package as ok with counts, warnings and the protocol', async () => {
    const report = await validatePackage((await build()).root)
    expect(report).toMatchObject({ ok: true, frozenRelease: false, protocol: 'assembly-evaluation-v1', problems: [] })
    expect(report.counts).toEqual({ blocks: 5, samples: 10, episodes: 10, evaluations: 10, pages: 10 })
    expect(report.warnings.map(warning => warning.code)).toContain('PACKAGE_NOT_FROZEN_RELEASE')
  })

  it('does not stop at the first problem: every broken file is reported', async () => {
    const fixture = await build({
      edit: {
        evaluation: (block, id, json) => {
          if (block === 'partnet-none' && id === 'sample-00') json.equivalence.groups = [['p'], ['p']]
          if (block === 'fantastic-breaks-none' && id === 'sample-01') json.gt_poses.p = [0, 0, 0, 0, 0, 0, 0]
        },
        config: (block, json) => {
          if (block === 'ikea-manualbook') json.samples['sample-00']!.episode_id = 'awa-other'
        },
      },
    })
    await fixture.writeBytes(fixture.rel.episode('assemblybench-manualbook', 'sample-01'), 'corrupt')
    await fixture.writeBytes(fixture.rel.task('partnet-final-image'), 'changed')
    await rm(fixture.path(fixture.rel.page('ikea-manualbook', 'sample-01', 2)))
    const report = await validatePackage(fixture.root)
    expect(report.ok).toBe(false)
    const found = report.problems.map(problem => [problem.code, problem.file])
    expect(found).toEqual(expect.arrayContaining([
      ['PACKAGE_EVALUATION', fixture.rel.evaluation('partnet-none', 'sample-00')],
      ['PACKAGE_EVALUATION', fixture.rel.evaluation('fantastic-breaks-none', 'sample-01')],
      ['PACKAGE_MISMATCH', fixture.rel.config('ikea-manualbook')],
      ['PACKAGE_HASH_MISMATCH', fixture.rel.episode('assemblybench-manualbook', 'sample-01')],
      ['PACKAGE_HASH_MISMATCH', fixture.rel.task('partnet-final-image')],
      ['PACKAGE_FILE_MISSING', fixture.rel.page('ikea-manualbook', 'sample-01', 2)],
    ]))
    expect(report.problems).toHaveLength(6)
    for (const problem of report.problems) expect(problem.message).toContain(problem.file)
  })

  it('turns a throw of the episode check into a problem and passes the episode bytes', async () => {
    const fixture = await build()
    const seen: string[] = []
    const report = await validatePackage(fixture.root, {
      checkEpisode: async (bytes, file) => {
        seen.push(file)
        expect(bytes.length).toBeGreaterThan(0)
        if (file.includes('ikea-manualbook') && file.endsWith('sample-01.episode.zip')) throw new Error('manifest.json is missing')
      },
    })
    expect(seen).toHaveLength(10)
    expect(report.problems).toEqual([expect.objectContaining({ code: 'PACKAGE_EPISODE_INVALID', file: fixture.rel.episode('ikea-manualbook', 'sample-01') })])
    expect(report.problems[0]?.message).toContain('manifest.json is missing')
  })

  it('reports a missing benchmark.json and a missing directory as problems, without throwing', async () => {
    const fixture = await build()
    await rm(fixture.path('benchmark.json'))
    const report = await validatePackage(fixture.root)
    expect(report.ok).toBe(false)
    expect(report.problems.map(problem => problem.code)).toEqual(['PACKAGE_FILE_MISSING'])
    expect(report.protocol).toBeNull()
    expect((await validatePackage(`${fixture.root}-missing`)).problems[0]?.code).toBe('PACKAGE_NOT_FOUND')
  })

  it('does not call a path it cannot read missing: a link loop is unreadable, for the root, a file and the optional index', async () => {
    // A link to itself fails with ELOOP, not ENOENT, even for root (who ignores permission bits).
    const fixture = await build()
    const loop = `${fixture.root}-loop`
    await symlink(loop, loop)
    try {
      expect((await validatePackage(loop)).problems).toEqual([expect.objectContaining({ code: 'PACKAGE_FILE_UNREADABLE', file: loop, message: expect.stringContaining('ELOOP') as unknown })])
    } finally {
      await rm(loop)
    }
    await rm(fixture.path('index'), { recursive: true })
    await symlink(join(fixture.root, 'index'), fixture.path('index'))
    await rm(fixture.path(fixture.rel.task('partnet-final-image')))
    await symlink(fixture.path(fixture.rel.task('partnet-final-image')), fixture.path(fixture.rel.task('partnet-final-image')))
    const report = await validatePackage(fixture.root)
    expect(report.problems).toEqual([expect.objectContaining({ code: 'PACKAGE_FILE_UNREADABLE', file: fixture.rel.task('partnet-final-image') })])
    expect(report.warnings).toContainEqual(expect.objectContaining({ code: 'PACKAGE_INDEX_UNREADABLE', message: expect.stringContaining('ELOOP') as unknown }))
    expect(report.warnings.map(warning => warning.code)).not.toContain('PACKAGE_INDEX_MISSING')
  })

  it('keeps checking the other blocks when one block record is broken', async () => {
    const fixture = await build({ edit: { benchmark: json => { json.blocks[1]!.revision = 'short' } } })
    const report = await validatePackage(fixture.root)
    expect(report.problems.map(problem => [problem.code, problem.field])).toEqual([['PACKAGE_SCHEMA', 'blocks[1].revision']])
    expect(report.counts.blocks).toBe(4)
  })

  it('reports parquet disagreement as a warning only', async () => {
    const fixture = await build({ edit: { benchmark: json => { json.blocks[3]!.samples['sample-01']!.band = 'high' } } })
    const report = await validatePackage(fixture.root)
    expect(report.ok).toBe(true)
    expect(report.warnings.some(warning => warning.code === 'PACKAGE_INDEX_DISAGREES' && warning.message.includes('band'))).toBe(true)
  })

  it('records the v2 marker', async () => {
    const report = await validatePackage((await build({ protocol: 'assembly-evaluation-v2' })).root)
    expect(report).toMatchObject({ ok: true, protocol: 'assembly-evaluation-v2' })
  })
})
