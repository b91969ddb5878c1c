// Long runs survive faults (child `vitest run` processes, real Chromium): kill -9 mid-block then resume, the stop
// rules (three infrastructure failures, quota text), --retry-failed, and `awb status` on each kind of run. Browser
// faults inside a run (a killed Chromium, a crashed page, Ctrl-C, a page that never yields) are browser-recovery.test.ts.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainStatus } from '../../src/runs/index.ts'
import { BLOCK, blockFigures, CHILD_MS, FAILING_AGENT, removeRunFolders, newRuns, resultsWith, runDirs, SAMPLES, status, vitestRun, type BlockFigures } from '../helpers/long-run.ts'

afterAll(removeRunFolders)

// The kill and the stop rules are independent child runs with their own runs folders: they run at once
// (test/vitest.config.ts caps how many). Which samples a resume selects, for every record state, is
// test/unit/harness/run-rules.test.ts; here the whole process is killed once, in the middle of a sample after another
// finished, so the resume must keep the finished one and run the interrupted one and the rest.
describe.concurrent('kill -9 mid-block, then AWB_RESUME', () => {
  let baseline: BlockFigures
  beforeAll(async () => {
    const runs = await newRuns()
    const child = await vitestRun({ AWB_RUNS: runs })
    expect(child.code, child.output).toBe(0)
    baseline = await blockFigures((await runDirs(runs))[0]!)
  }, CHILD_MS)

  it('killed while a sample runs after another finished: the resumed chain has every sample exactly once and the same aggregate as an uninterrupted run', async () => {
    const runs = await newRuns()
    const killed = await vitestRun({ AWB_RUNS: runs }, async () => (await resultsWith(runs, 'completed')) >= 1 && (await resultsWith(runs, 'running')) >= 1)
    expect(killed.code).toBeNull() // killed by the signal
    const [first] = await runDirs(runs)
    const before = await status(first!)
    expect(before.status).toBe('interrupted')
    const finished = Object.values(before.samples).filter(state => state === 'completed').length
    expect(finished).toBeGreaterThanOrEqual(1)
    expect(finished).toBeLessThan(SAMPLES.length)
    // The sample in flight is recorded interrupted: its process is gone.
    const blockStates = new Map(Object.entries(before.samples).filter(([key]) => key.startsWith(`${BLOCK}/`)).map(([key, state]) => [key.slice(BLOCK.length + 1), state]))
    expect([...blockStates.values()]).toContain('interrupted')

    const resumed = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: 'latest' })
    expect(resumed.code, resumed.output).toBe(0)
    const [, second] = await runDirs(runs)
    const chain = await chainStatus(second!)
    expect(chain.chain.map(run => run.dir)).toHaveLength(2)
    expect(chain.samples.map(sample => [sample.sampleId, sample.state])).toEqual(SAMPLES.map(id => [id, 'completed']))
    // Only what was not finished ran again; the old run's files were left as they were.
    const rerun = Object.values((JSON.parse(await readFile(join(second!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()
    expect(rerun).toEqual(SAMPLES.filter(id => blockStates.get(id) !== 'completed'))
    expect((await status(first!)).samples).toEqual(before.samples)
    expect(await blockFigures(second!)).toEqual(baseline)
    const after = await status(second!)
    expect(after).toMatchObject({ status: 'completed', counts: { completed: SAMPLES.length } })
  }, 2 * CHILD_MS)
})

describe.concurrent('stop rules', () => {
  it('three infrastructure failures pause the run, skip the rest, and --retry-failed runs them again', async () => {
    const runs = await newRuns()
    const failing = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: FAILING_AGENT })
    expect(failing.code).not.toBe(0)
    expect(failing.output).toMatch(/3 failed \| 1 skipped/)
    const [first] = await runDirs(runs)
    expect(await status(first!)).toMatchObject({ status: 'paused', pause_reason: 'Three consecutive infrastructure failures', counts: { failed: 3 } })
    expect(JSON.parse(await readFile(join(first!, 'summary.json'), 'utf8'))).toMatchObject({ status: 'partial' })

    // --retry-failed runs the failed samples again and the one that never ran (a plain resume leaves failed samples
    // as they failed: run-rules.test.ts).
    const retried = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: first!, AWB_RETRY_FAILED: '1' })
    expect(retried.code, retried.output).toBe(0)
    const [, second] = await runDirs(runs)
    expect(Object.values((JSON.parse(await readFile(join(second!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()).toEqual(SAMPLES)
    expect(await status(second!)).toMatchObject({ status: 'completed', counts: { completed: 4 } })
  }, 2 * CHILD_MS)

  it('quota text stops the run after the first sample', async () => {
    const runs = await newRuns()
    const quota = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: FAILING_AGENT, VITE_AWB_FAIL_MESSAGE: "You've hit your usage limit. Try again at 5pm." })
    expect(quota.output).toMatch(/1 failed \| 3 skipped/)
    expect(quota.output).toMatch(/Account quota exhausted/)
    const [first] = await runDirs(runs)
    expect(await status(first!)).toMatchObject({ status: 'paused', pause_reason: 'Account quota exhausted', counts: { failed: 1 } })
  }, CHILD_MS)
})
