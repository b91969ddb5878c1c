// Long runs survive faults (child `vitest run` processes, real Chromium): kill -9 mid-block then resume, the stop
// rules (three infrastructure failures, quota text), --retry-failed, and `awb status` on each kind of run. Browser
// faults inside a run (a killed Chromium, a crashed page, Ctrl-C, a page that never yields) are browser-recovery.test.ts.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainStatus } from '../../src/runs/index.ts'
import { blockFigures, CHILD_MS, FAILING_AGENT, removeRunFolders, newRuns, resultsWith, runDirs, SAMPLES, status, vitestRun, type BlockFigures } from '../helpers/long-run.ts'

afterAll(removeRunFolders)

// Each test is its own child runs with its own runs folder: they run at once (test/vitest.config.ts caps how many).
describe.concurrent('kill -9 mid-block, then AWB_RESUME', () => {
  let baseline: BlockFigures
  beforeAll(async () => {
    const runs = await newRuns()
    const child = await vitestRun({ AWB_RUNS: runs })
    expect(child.code, child.output).toBe(0)
    baseline = await blockFigures((await runDirs(runs))[0]!)
  }, CHILD_MS)

  it.each([
    ['while the first sample runs', (runs: string) => resultsWith(runs, 'running').then(n => n >= 1)],
    ['after two samples finished', (runs: string) => resultsWith(runs, 'completed').then(n => n >= 2)],
  ])('%s: the resumed chain has every sample exactly once and the same aggregate as an uninterrupted run', async (_when, killWhen) => {
    const runs = await newRuns()
    const killed = await vitestRun({ AWB_RUNS: runs }, () => killWhen(runs))
    expect(killed.code).toBeNull() // killed by the signal
    const [first] = await runDirs(runs)
    const before = await status(first!)
    expect(before.status).toBe('interrupted')
    const finished = Object.values(before.samples).filter(state => state === 'completed').length
    expect(finished).toBeLessThan(SAMPLES.length)

    const resumed = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: 'latest' })
    expect(resumed.code, resumed.output).toBe(0)
    const [, second] = await runDirs(runs)
    const chain = await chainStatus(second!)
    expect(chain.chain.map(run => run.dir)).toHaveLength(2)
    expect(chain.samples.map(sample => [sample.sampleId, sample.state])).toEqual(SAMPLES.map(id => [id, 'completed']))
    // Only what was not finished ran again; the old run's files were left as they were.
    const rerun = Object.values((JSON.parse(await readFile(join(second!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()
    expect(rerun).toHaveLength(SAMPLES.length - finished)
    expect((await status(first!)).samples).toEqual(before.samples)
    expect(await blockFigures(second!)).toEqual(baseline)
    const after = await status(second!)
    expect(after).toMatchObject({ status: 'completed', counts: { completed: SAMPLES.length } })
  }, 2 * CHILD_MS)
})

describe.concurrent('stop rules', () => {
  it('three infrastructure failures pause the run, skip the rest, and --retry-failed runs exactly the failed ones', async () => {
    const runs = await newRuns()
    const failing = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: FAILING_AGENT })
    expect(failing.code).not.toBe(0)
    expect(failing.output).toMatch(/3 failed \| 1 skipped/)
    const [first] = await runDirs(runs)
    expect(await status(first!)).toMatchObject({ status: 'paused', pause_reason: 'Three consecutive infrastructure failures', counts: { failed: 3 } })
    expect(JSON.parse(await readFile(join(first!, 'summary.json'), 'utf8'))).toMatchObject({ status: 'partial' })

    // Without --retry-failed only the sample that never ran runs; the failed ones are reported as they failed.
    const plain = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: first! })
    expect(plain.output).toMatch(/3 failed \| 1 passed/)
    const [, second] = await runDirs(runs)
    expect(Object.values((JSON.parse(await readFile(join(second!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()).toEqual([SAMPLES[3]])

    const retried = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: second!, AWB_RETRY_FAILED: '1' })
    expect(retried.code, retried.output).toBe(0)
    const [, , third] = await runDirs(runs)
    expect(Object.values((JSON.parse(await readFile(join(third!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()).toEqual(SAMPLES.slice(0, 3))
    expect(await status(third!)).toMatchObject({ status: 'completed', counts: { completed: 4 } })
  }, 3 * CHILD_MS)

  it('quota text stops the run after the first sample', async () => {
    const runs = await newRuns()
    const quota = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: FAILING_AGENT, VITE_AWB_FAIL_MESSAGE: "You've hit your usage limit. Try again at 5pm." })
    expect(quota.output).toMatch(/1 failed \| 3 skipped/)
    expect(quota.output).toMatch(/Account quota exhausted/)
    const [first] = await runDirs(runs)
    expect(await status(first!)).toMatchObject({ status: 'paused', pause_reason: 'Account quota exhausted', counts: { failed: 1 } })
  }, CHILD_MS)
})
