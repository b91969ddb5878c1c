// Notices a block page that stopped responding: a page agent that never yields the page's main thread (a busy loop,
// a hostile agent) silences everything in the page, its own time limit included, and Vitest waits for the test
// forever (a dead page whose connection stays open does the same, vitest#10791). Node sees the page's heartbeats stop;
// once the sample is also past its time limit, `onHung` says so, once per sample. No browser handling here.
import { sampleKey } from '../../package/index.ts'

/** Silence (no heartbeat) and time past the limit after which a page counts as hung. */
export const HUNG_PAGE_GRACE_MS = 60_000
/** The shortest grace a run may set: far above the page's 1 s heartbeat and the 5 s check, so a busy page survives. */
export const MIN_HUNG_PAGE_GRACE_S = 10
/** How often open samples are checked. */
const CHECK_EVERY_MS = 5_000

/** The run's settings of the watch (part of BenchmarkSessionOptions). */
export interface HungPageSettings {
  /**
   * A block's page stopped responding past its sample's time limit: the caller closes that page, and its loss comes
   * back through `BenchmarkSession.pageLost` with `reason`. Without it, nothing happens.
   */
  onPageHung?: (block: string, reason: string) => void
  /** Silence and time past the limit after which a page counts as hung, in seconds; default HUNG_PAGE_GRACE_MS. */
  hungPageGraceSeconds?: number | undefined
}

export interface HungPageWatchOptions {
  /** The agent's time limit, in ms (the page starts it when its agent starts). */
  timeLimitMs: number
  /** Time a page may take to open its environment before its agent (and heartbeats) start, in ms. */
  openAllowanceMs: number
  /** Default HUNG_PAGE_GRACE_MS. */
  graceMs?: number
  onHung(block: string, sampleId: string, reason: string): void
  /** Millisecond clock; default Date.now (tests pass a scripted one). */
  now?: () => number
}

interface Watched {
  block: string
  sampleId: string
  openedAt: number
  /**
   * First and latest sign of life (a heartbeat, a conversation record): the first comes once the agent runs, so it
   * marks (within a second) when the page started its agent and its limit.
   */
  firstBeat: number | undefined
  lastBeat: number | undefined
}

export class HungPageWatch {
  private readonly watched = new Map<string, Watched>()
  private timer: ReturnType<typeof setInterval> | undefined
  private readonly now: () => number
  private readonly graceMs: number

  private readonly options: HungPageWatchOptions

  constructor(options: HungPageWatchOptions) {
    this.options = options
    this.now = options.now ?? Date.now
    this.graceMs = options.graceMs ?? HUNG_PAGE_GRACE_MS
  }

  /** A sample's page opened it; checks start with the first watched sample. */
  opened(block: string, sampleId: string): void {
    this.watched.set(sampleKey(block, sampleId), { block, sampleId, openedAt: this.now(), firstBeat: undefined, lastBeat: undefined })
    this.timer ??= setInterval(() => this.check(), CHECK_EVERY_MS)
    this.timer.unref?.()
  }

  /** The page checked in for the sample (a heartbeat or a record: it is alive). */
  beat(block: string, sampleId: string): void {
    const watched = this.watched.get(sampleKey(block, sampleId))
    if (watched === undefined) return
    watched.firstBeat ??= this.now()
    watched.lastBeat = this.now()
  }

  /** The sample ended (finished, saved and finishing, or recorded lost): its page is no longer watched. */
  ended(block: string, sampleId: string): void {
    this.watched.delete(sampleKey(block, sampleId))
  }

  /** Reports every watched sample whose page is hung, once (it is no longer watched afterwards). */
  check(): void {
    const now = this.now()
    for (const watched of [...this.watched.values()]) {
      const agentStart = watched.firstBeat ?? watched.openedAt + this.options.openAllowanceMs
      const pastLimit = now - (agentStart + this.options.timeLimitMs)
      const silence = now - (watched.lastBeat ?? watched.openedAt)
      if (pastLimit < this.graceMs || silence < this.graceMs) continue
      this.watched.delete(sampleKey(watched.block, watched.sampleId))
      this.options.onHung(watched.block, watched.sampleId, `the page of block ${watched.block} stopped responding: ${watched.sampleId} is ${Math.round(pastLimit / 1000)} s past its time limit of ${this.options.timeLimitMs / 1000} s and the page has not checked in for ${Math.round(silence / 1000)} s (an agent that never yields the page's main thread); the block continues in a new page`)
    }
  }

  /** Stops checking (the run is ending). */
  close(): void {
    clearInterval(this.timer)
    this.timer = undefined
    this.watched.clear()
  }
}

