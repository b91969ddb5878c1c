// The suite's order: each project's files slowest first by the recorded CI seconds (test/file-seconds.json),
// projects kept one after another as Vitest orders them; a file with no record goes after the recorded ones.
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import { recordedSeconds, SlowestFirstSequencer } from '../../slowest-first.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

function spec(project: string, path: string): TestSpecification {
  return { moduleId: resolve(ROOT, path), project: { name: project, config: { root: ROOT, sequence: { groupOrder: 0 }, isolate: true } } } as unknown as TestSpecification
}

describe('SlowestFirstSequencer', () => {
  it('starts each project\'s slowest recorded files first and keeps the projects apart', async () => {
    const sequencer = new SlowestFirstSequencer({ cache: { getTestSpecificationResult: () => undefined, getFileTestResults: () => undefined, getFileStats: () => undefined }, config: { root: ROOT } } as unknown as Vitest)
    const files = [
      spec('unit', 'test/unit/repo/slowest-first.test.ts'),
      spec('integration', 'test/integration/vitest-compat.test.ts'),
      spec('integration', 'test/integration/user-project.test.ts'),
      spec('unit', 'test/unit/package/open-package.test.ts'),
      spec('integration', 'test/integration/long-runs.test.ts'),
    ]
    const order = (await sequencer.sort(files)).map(file => `${file.project.name}:${file.moduleId.slice(ROOT.length + 1)}`)
    expect(recordedSeconds(resolve(ROOT, 'test/integration/user-project.test.ts'))).toBeGreaterThan(recordedSeconds(resolve(ROOT, 'test/integration/long-runs.test.ts')))
    expect(order).toEqual([
      'integration:test/integration/user-project.test.ts',
      'integration:test/integration/long-runs.test.ts',
      'integration:test/integration/vitest-compat.test.ts',
      'unit:test/unit/package/open-package.test.ts',
      'unit:test/unit/repo/slowest-first.test.ts',
    ])
  })
})
