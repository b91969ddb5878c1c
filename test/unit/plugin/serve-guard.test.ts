import { describe, expect, it } from 'vitest'
import { fsDenyPatterns, isProtectedUrl } from '../../../plugin/serve-guard.ts'

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
