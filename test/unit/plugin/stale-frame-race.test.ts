// The filter for Playwright's stale-frame race (plugin/vitest-compat/stale-frame-race.ts): it drops exactly that
// rejection and hands every other one to the listeners that were there, in order, with its promise.
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { ignoreStaleFrameRace, isStaleFrameRace } from '../../../plugin/vitest-compat/stale-frame-race.ts'

/** The error as playwright-core 1.65 throws it from a lifecycle event of a frame whose page crashed. */
function staleFrameError(): Error {
  const error = new Error('Frame has been detached.')
  error.stack = [
    'Error: Frame has been detached.',
    '    at CRPage._sessionForFrame (node_modules/playwright-core/lib/coreBundle.js:39088:19)',
    '    at _FrameSession._eventBelongsToStaleFrame (node_modules/playwright-core/lib/coreBundle.js:39504:38)',
    '    at _FrameSession._onLifecycleEvent (node_modules/playwright-core/lib/coreBundle.js:39479:18)',
  ].join('\n')
  return error
}

describe('Playwright\'s stale-frame race', () => {
  it('is recognised by its message and the stale-frame check in its stack, nothing else', () => {
    expect(isStaleFrameRace(staleFrameError())).toBe(true)
    // The same message from an API call on a detached frame is the caller's error, not this race.
    const fromApi = new Error('Frame has been detached.')
    fromApi.stack = 'Error: Frame has been detached.\n    at Frame.evaluate (node_modules/playwright-core/lib/coreBundle.js:1:1)'
    expect(isStaleFrameRace(fromApi)).toBe(false)
    expect(isStaleFrameRace('Frame has been detached.')).toBe(false)
    expect(isStaleFrameRace(new Error('Browser connection was closed while running tests'))).toBe(false)
  })

  it('is dropped with a log line; every other rejection reaches the earlier listeners unchanged, once', () => {
    const events = new EventEmitter()
    const seen: unknown[][] = []
    events.on('unhandledRejection', (reason, promise) => seen.push(['vitest', reason, promise]))
    events.on('unhandledRejection', reason => seen.push(['second', reason]))
    const logged: string[] = []
    ignoreStaleFrameRace(line => logged.push(line), events)
    ignoreStaleFrameRace(line => logged.push(line), events)
    expect(events.listenerCount('unhandledRejection')).toBe(1)

    events.emit('unhandledRejection', staleFrameError(), 'p1')
    expect(seen).toEqual([])
    expect(logged).toEqual([expect.stringContaining('Frame has been detached.')])

    const other = new Error('a real failure')
    events.emit('unhandledRejection', other, 'p2')
    expect(seen).toEqual([['vitest', other, 'p2'], ['second', other]])
  })

  it('throws any other rejection where no listener was there before, as Node would', () => {
    const events = new EventEmitter()
    ignoreStaleFrameRace(() => undefined, events)
    expect(() => events.emit('unhandledRejection', new Error('unhandled'), 'p')).toThrow('unhandled')
    expect(() => events.emit('unhandledRejection', staleFrameError(), 'p')).not.toThrow()
  })
})
