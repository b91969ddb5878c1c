// One Playwright race that must not end a run. Playwright's Chromium driver (playwright-core 1.65) handles each CDP
// event in a promise nobody awaits; a lifecycle event of a frame in a renderer of its own (an agent's realm) that
// arrives after the page holding it crashed makes FrameSession._eventBelongsToStaleFrame → CRPage._sessionForFrame
// throw "Frame has been detached.", an unhandled rejection. Vitest's main process exits on any unhandled rejection
// (its Logger's registerUnhandledRejection, 4.1 and 5 alike), so one crashed page would end the whole run, every block
// included, instead of the one sample browser recovery fails. The event belongs to a frame that is gone, which is what
// Playwright's check was asking: this filter drops that one rejection and hands every other to the listeners that were
// registered before it (Vitest's), unchanged.

/** Whether `reason` is Playwright's stale-frame check throwing for a frame whose page is gone. */
export function isStaleFrameRace(reason: unknown): boolean {
  return reason instanceof Error && reason.message === 'Frame has been detached.' && (reason.stack ?? '').includes('_eventBelongsToStaleFrame')
}

/** What the filter needs of a process: its listeners (an EventEmitter stands in for it in tests). */
type RejectionEvents = Pick<NodeJS.EventEmitter, 'listeners' | 'removeAllListeners' | 'on'>

const filtered = new WeakSet<RejectionEvents>()

/**
 * Puts the filter in front of `target`'s `unhandledRejection` listeners, once per target; call it after Vitest
 * registered its own (it does so when it starts, before any page opens). Without an earlier listener, any other
 * rejection is thrown, as Node does by default.
 */
export function ignoreStaleFrameRace(log: (line: string) => void, target: RejectionEvents = process): void {
  if (filtered.has(target)) return
  filtered.add(target)
  const earlier = target.listeners('unhandledRejection') as ((reason: unknown, promise: unknown) => void)[]
  target.removeAllListeners('unhandledRejection')
  target.on('unhandledRejection', (reason: unknown, promise: unknown) => {
    if (isStaleFrameRace(reason)) {
      log('awb: ignored Playwright\'s "Frame has been detached." for an event of a frame whose page had crashed')
      return
    }
    if (earlier.length === 0) throw reason
    for (const listener of earlier) listener(reason, promise)
  })
}
