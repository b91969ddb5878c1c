import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { earlierRunFolders, expandProtectedDirs, fsDenyPatterns, isProtectedUrl, runProtectedDirs } from '../../../plugin/serve-guard.ts'
import { PACKAGE_ROOT } from '../../../src/shared/package-root.ts'
import { writeRun } from '../../helpers/run-fixture.ts'

const options = { root: '/repo', protectedDirs: ['/repo/fixtures', '/data/pkg', '/repo/runs'] }

describe('the serve guard', () => {
  it.each([
    '/fixtures/awb-mini/benchmark.json',
    '/fixtures/demonstrations/ikea/a.calls.jsonl',
    '/runs/2026/blocks/b/samples/s/final.episode.zip',
    '/@fs/data/pkg/ikea/task.txt',
    '/@fs/repo/fixtures/awb-mini/benchmark.json?raw',
    '/@id//data/pkg/x.json?import',
    '/suites/../fixtures/awb-mini/x',
    '/suites/..%2ffixtures/awb-mini/x',
    '/suites/%2e%2e/fixtures/awb-mini/x',
    '/suites/%252e%252e%252ffixtures/awb-mini/x',
    '//fixtures//awb-mini/x?url',
    '/FIXTURES/awb-mini/x',
    '/suites\\..\\fixtures\\x',
    '/__vitest_attachment__?path=%2Fdata%2Fpkg%2Fx.png&contentType=image/png',
    '/src/x.ts?importer=/data/pkg/y',
    '/anything/evaluation.json',
    '/elsewhere/EVALUATION.JSON?inline',
    '/x/evaluation%2ejson',
    '/@awb/input/%E0%A4%A/../../../fixtures/x',
  ])('refuses %s', (url) => {
    expect(isProtectedUrl(url, options)).toBe(true)
  })

  it.each([
    '/suites/benchmark-block.ts',
    '/src/harness/index.ts?v=123',
    '/node_modules/.vite/deps/three.js?v=1',
    '/@fs/repo/node_modules/@mujoco/mujoco/mujoco.wasm?url',
    '/@awb/input/0123abcd/initial.episode.zip',
    '/fixtures-elsewhere/x',
    '/__vitest_test__/?sessionId=1',
  ])('serves %s', (url) => {
    expect(isProtectedUrl(url, options)).toBe(false)
  })

  it('keeps Vite\'s default deny list and adds the protected folders and every evaluation.json', () => {
    const deny = fsDenyPatterns(['/data/pkg'])
    expect(deny).toEqual(expect.arrayContaining(['.env', '**/.git/**', '**/evaluation.json', '/data/pkg', '/data/pkg/**']))
  })
})

describe('runProtectedDirs', () => {
  const settings = { benchmark: '/data/pkg', runsRoot: '/work/runs', demonstrations: '/work/demos', agent: 'replay' }

  it('protects the compiled fixture generator of a checkout where `npm run build` ran, besides its sources', () => {
    const dirs = runProtectedDirs(settings, '/data/pkg')
    expect(dirs).toContain(join(PACKAGE_ROOT, 'dist', 'fixtures'))
    expect(dirs).toContain(join(PACKAGE_ROOT, 'fixtures'))
    expect(isProtectedUrl('/dist/fixtures/generator/index.js', { root: PACKAGE_ROOT, protectedDirs: expandProtectedDirs(dirs) })).toBe(true)
  })

  it('protects the earlier runs a run reads (a baseline or resumed run kept outside the runs folder), served or bundled', () => {
    const dirs = expandProtectedDirs(runProtectedDirs({ ...settings, earlierRuns: ['/work/baselines/main'] }, '/data/pkg'))
    expect(dirs).toContain('/work/baselines/main')
    for (const url of ['/baselines/main/ikea-manualbook/x/final.episode.zip', '/@fs/work/baselines/main/metrics.jsonl', '/suites/..%2fbaselines/main/run.json']) {
      expect(isProtectedUrl(url, { root: '/work', protectedDirs: dirs }), url).toBe(true)
    }
    expect(() => runProtectedDirs({ ...settings, agent: '/work/baselines/main/agent.ts', earlierRuns: ['/work/baselines/main'] }, '/data/pkg')).toThrow(/never served to the page/)
  })

  it('finds the earlier runs: the baseline, the resumed run and every run of its chain; `latest` is in the runs folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'awb-earlier-runs-'))
    try {
      const first = await writeRun({ dir: join(root, 'kept', 'first'), attempts: [{ block: 'b1', sampleId: 's1' }] })
      const resumed = await writeRun({ dir: join(root, 'elsewhere', 'second'), sourceRun: first, attempts: [{ block: 'b1', sampleId: 's2' }] })
      // A baseline may be an `awb eval` output: metrics.jsonl only, no run.json.
      const baseline = join(root, 'baseline')
      await mkdir(baseline)
      await writeFile(join(baseline, 'metrics.jsonl'), '')
      expect((await earlierRunFolders({ baseline, resume: resumed })).sort()).toEqual([baseline, first, resumed].sort())
      expect(await earlierRunFolders({ baseline: undefined, resume: 'latest' })).toEqual([])
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  it('refuses a folder that holds the plugin itself, or an agent module in a protected folder', () => {
    expect(() => runProtectedDirs({ ...settings, runsRoot: dirname(PACKAGE_ROOT) }, '/data/pkg')).toThrow(/contains the plugin itself/)
    expect(() => runProtectedDirs({ ...settings, agent: '/work/demos/agent.ts' }, '/data/pkg')).toThrow(/never served to the page/)
  })
})
