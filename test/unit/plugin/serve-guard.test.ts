import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expandProtectedDirs, fsDenyPatterns, isProtectedUrl, runProtectedDirs } from '../../../plugin/serve-guard.ts'
import { PACKAGE_ROOT } from '../../../src/shared/package-root.ts'

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

  it('refuses a folder that holds the plugin itself, or an agent module in a protected folder', () => {
    expect(() => runProtectedDirs({ ...settings, runsRoot: dirname(PACKAGE_ROOT) }, '/data/pkg')).toThrow(/contains the plugin itself/)
    expect(() => runProtectedDirs({ ...settings, agent: '/work/demos/agent.ts' }, '/data/pkg')).toThrow(/never served to the page/)
  })
})
