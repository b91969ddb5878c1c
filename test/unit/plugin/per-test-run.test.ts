// One session per Vitest run: `vitest run` opens one, each watch-mode rerun drops the last run's and opens its own on
// first use (with the run's number, so resume applies to the first run only).
import { describe, expect, it } from 'vitest'
import { PerTestRun } from '../../../plugin/running-tests.ts'

describe('PerTestRun', () => {
  it('opens one value per run, on first use, and keeps it for the whole run', async () => {
    const opened: number[] = []
    const runs = new PerTestRun(async run => { opened.push(run); return `session ${opened.length}` })
    expect(runs.peek()).toBeUndefined()
    runs.onTestRunStart()
    expect(runs.running).toBe(true)
    expect(await runs.get()).toBe('session 1')
    expect(await runs.get()).toBe('session 1')
    runs.onTestRunEnd()
    expect(runs.running).toBe(false)
    // After the run, its value stays for the reporters that read it last (JUnit's stop reason).
    expect(await runs.peek()).toBe('session 1')
    runs.onTestRunStart()
    expect(runs.peek()).toBeUndefined()
    expect(await runs.get()).toBe('session 2')
    expect(opened).toEqual([1, 2])
  })

  it('keeps the first run\'s value opened before the run started, and counts a use before any run as the first', async () => {
    const opened: number[] = []
    const runs = new PerTestRun(async run => { opened.push(run); return run })
    expect(await runs.get()).toBe(1)
    runs.onTestRunStart()
    expect(await runs.get()).toBe(1)
    runs.onTestRunEnd()
    runs.onTestRunStart()
    runs.onTestRunEnd()
    // A rerun that used no session (every test filtered out) opened none.
    runs.onTestRunStart()
    expect(await runs.get()).toBe(3)
    expect(opened).toEqual([1, 3])
  })
})
