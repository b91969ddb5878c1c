// JUnit for a stopped run: a sample the run did not start is `<skipped message="…">` with Node's stop reason, never
// the page's note, on the installed Vitest major (the vitest-4.1 leg runs this file on 4.1). The reporter is driven
// directly with one block module, as Vitest hands it over at the end of a run.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { JUnitReporter, type JUnitOptions, type Reporter, type TestModule, type Vitest } from 'vitest/node'
import { runningAdapter } from '../../../plugin/vitest-compat/index.ts'
import { stoppedSkipMessage, useBlockJUnit, type StopReason } from '../../../plugin/vitest-compat/junit.ts'

const BLOCK = 'partnet-none'
const STOP = 'Three consecutive infrastructure failures'

let work: string | undefined
afterEach(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true })
  work = undefined
})

/** A block module as Vitest's runner leaves it: one sample run, two skipped by the page at run time, one filtered out. */
function blockModule(root: string): TestModule {
  const project = { name: `${BLOCK} (chromium)`, getProvidedContext: () => ({ awbBlock: { name: BLOCK } }) }
  const file: Record<string, unknown> = { id: 'f', type: 'suite', name: 'suites/benchmark-block.ts', filepath: join(root, 'suites/benchmark-block.ts'), projectName: project.name, mode: 'run', meta: {}, result: { state: 'pass', duration: 1 } }
  const test = (name: string, mode: string, result: Record<string, unknown> | undefined) => ({ id: `t-${name}`, type: 'test', name, fullName: `${BLOCK} > ${name}`, mode, result, meta: {}, file, annotations: [], artifacts: [], benchmarks: [], logs: [], context: {} })
  const describeBlock = { id: 'd', type: 'suite', name: BLOCK, mode: 'run', file, meta: {}, result: { state: 'pass' }, tasks: [] as unknown[] }
  describeBlock.tasks = [
    test('sample-00', 'run', { state: 'pass', duration: 5 }),
    test('sample-01', 'skip', { state: 'skip', note: 'written by the page', pending: true, duration: 1 }),
    test('sample-02', 'skip', { state: 'skip', note: 'written by the page', pending: true, duration: 1 }),
    // Filtered out (`-t`): skipped before it ran, so no reason of Node's applies.
    test('sample-03', 'skip', undefined),
  ]
  file.tasks = [describeBlock]
  return { task: file, project } as unknown as TestModule
}

async function writeJUnit(stopReason: StopReason): Promise<string> {
  work = await mkdtemp(join(tmpdir(), 'awb-junit-'))
  const outputFile = join(work, 'junit.xml')
  const module = blockModule(work)
  const vitest = { config: { reporters: [['junit', { outputFile }]] }, projects: [module.project] } as unknown as Vitest
  useBlockJUnit(vitest, runningAdapter(), stopReason)
  // An entry left as `['junit', options]` is built by Vitest itself; do the same here.
  const entry = vitest.config.reporters[0]
  const reporter: Reporter = Array.isArray(entry) ? new JUnitReporter(entry[1] as JUnitOptions) : entry as Reporter
  const ctx = { config: { root: work }, logger: { log: () => {} }, getProjectByName: () => module.project }
  await reporter.onInit?.(ctx as unknown as Vitest)
  await reporter.onTestRunEnd?.([module], [], 'passed')
  return readFile(outputFile, 'utf8')
}

describe('JUnit <skipped> of a stopped run', () => {
  it('carries Node\'s stop reason on each sample the page skipped, once, and nothing of the page\'s note', async () => {
    const xml = await writeJUnit(async () => STOP)
    const cases = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/testcase>/g)].map(([, name, body]) => ({ name, body: body!.trim() }))
    expect(cases.map(c => c.name)).toEqual([expect.stringMatching(/sample-00$/), expect.stringMatching(/sample-01$/), expect.stringMatching(/sample-02$/), expect.stringMatching(/sample-03$/)])
    const message = `<skipped message="${stoppedSkipMessage(STOP)}">`
    expect(cases[0]!.body).not.toContain('skipped')
    for (const stopped of [cases[1]!, cases[2]!]) {
      expect(stopped.body.startsWith(message)).toBe(true)
      expect(stopped.body.match(/<skipped/g)).toHaveLength(1)
    }
    expect(cases[3]!.body).toBe('<skipped/>')
    expect(xml).not.toContain('written by the page')
    // The suite is still the block's, and its skipped count is Vitest's own.
    expect(xml).toMatch(new RegExp(`<testsuite name="${BLOCK}" [^>]*skipped="3"`))
  })

  it('leaves Vitest\'s bare <skipped/> when Node did not stop the run', async () => {
    const xml = await writeJUnit(() => undefined)
    expect(xml.match(/<skipped\/>/g)).toHaveLength(3)
    expect(xml).not.toContain('message=')
  })
})
