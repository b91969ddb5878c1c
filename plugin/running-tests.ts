// Which test Vitest is running in each block project, as its reporter events say: the Node side's answer to
// "is this the running test's sample?" when a page asks to start one.
import type { Reporter, TestCase } from 'vitest/node'
import { SampleAccessError } from '../src/harness/node/index.ts'
import { blockOfProject } from './vitest-compat/index.ts'

/**
 * How long a start waits for Vitest to report its test running. Vitest's runner throttles task updates and can hold
 * a test's start until the test ends; the block suite flushes them (an artifact) before its first command, so the
 * report is there at once and the wait only covers a slow machine.
 */
const REPORT_WAIT_MS = 30_000

/**
 * A reporter that records each project's running test (its name is the sample id: the suite names tests `%s`
 * over sample ids) and lets a start wait until the test it names is the one running in its project.
 */
export class RunningTests implements Reporter {
  private readonly running = new Map<string, string>()
  private readonly waiters = new Set<() => void>()
  private readonly waitMs: number
  private readonly onTestEnded: ((block: string, sampleId: string) => void) | undefined

  /** `onTestEnded` hears of every block test that ended (so a sample its page left open can be closed). */
  constructor(options: { waitMs?: number; onTestEnded?: (block: string, sampleId: string) => void } = {}) {
    this.waitMs = options.waitMs ?? REPORT_WAIT_MS
    this.onTestEnded = options.onTestEnded
  }

  onTestCaseReady(testCase: TestCase): void {
    const block = blockOfProject(testCase.project)
    if (block === undefined) return
    this.running.set(block, testCase.name)
    for (const wake of this.waiters) wake()
  }

  onTestCaseResult(testCase: TestCase): void {
    const block = blockOfProject(testCase.project)
    if (block === undefined) return
    if (this.running.get(block) === testCase.name) this.running.delete(block)
    this.onTestEnded?.(block, testCase.name)
  }

  /** The test running in `block`'s project, if any. */
  current(block: string): string | undefined {
    return this.running.get(block)
  }

  /** Resolves once `sampleId`'s test runs in `block`'s project; rejects when another runs or none does in time. */
  async awaitRunning(block: string, sampleId: string): Promise<void> {
    const deadline = Date.now() + this.waitMs
    while (this.running.get(block) !== sampleId) {
      const left = deadline - Date.now()
      if (left <= 0) {
        const current = this.running.get(block)
        throw new SampleAccessError('NOT_RUNNING_TEST', `${block} / ${String(sampleId)} is not the running test of project ${block}${current === undefined ? '' : ` (${current} is)`}; a page may start only its own test's sample`)
      }
      await new Promise<void>(resolve => {
        const wake = () => {
          clearTimeout(timer)
          this.waiters.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, left)
        this.waiters.add(wake)
      })
    }
  }
}

/**
 * One value per Vitest run (the benchmark session and its run folder): `vitest run` has one run, watch mode one per
 * rerun (`r`, a changed file, a new `-t` filter). The value is opened on first use within a run; the next run's start
 * drops it, so that run's first use opens a fresh one, and `open` learns which run (1 for the first) it serves. The
 * dropped value was ended by the run's end (the aggregate reporter closes the session there): Vitest ends a run,
 * its reporters included, before it starts the next one (a keyboard rerun cancels the run in progress and waits).
 */
export class PerTestRun<T> implements Reporter {
  private value: Promise<T> | undefined
  private runs = 0
  private inProgress = false
  private readonly open: (run: number) => Promise<T>

  constructor(open: (run: number) => Promise<T>) {
    this.open = open
  }

  onTestRunStart(): void {
    this.runs += 1
    this.inProgress = true
    // The first run keeps a value opened before it started (none is, in practice: samples open it).
    if (this.runs > 1) this.value = undefined
  }

  onTestRunEnd(): void {
    this.inProgress = false
  }

  /** The current run's value, opened now if it has none. */
  get(): Promise<T> {
    this.value ??= this.open(Math.max(this.runs, 1))
    return this.value
  }

  /** The current run's value, if one was opened (undefined between a rerun's start and its first use). */
  peek(): Promise<T> | undefined {
    return this.value
  }

  /** Whether a run has started and not ended (watch mode waits between runs with none). */
  get running(): boolean {
    return this.inProgress
  }
}
