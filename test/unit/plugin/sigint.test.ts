// Ctrl-C handling: the first SIGINT drains, a second quits at once with SIGINT's status (130) and a line saying the
// drain was cut short. A stand-in `process` carries the signals, so no real signal or exit is involved.
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { drainOnInterrupt, SIGINT_EXIT_CODE, type InterruptHost } from '../../../plugin/vitest-compat/sigint.ts'

/** A `process` stand-in whose `exitCode` setter rejects what Node rejects (anything but an integer). */
function fakeProcess(): InterruptHost & { emitter: EventEmitter, exits: number[] } {
  const emitter = new EventEmitter()
  let code: number | undefined
  const host = {
    emitter,
    exits: [] as number[],
    listeners: (event: 'SIGINT') => emitter.listeners(event) as ((signal: NodeJS.Signals, signalNumber?: number) => void)[],
    on: (event: 'SIGINT', listener: (signal: NodeJS.Signals, signalNumber?: number) => void) => emitter.on(event, listener),
    removeListener: (event: 'SIGINT', listener: (signal: NodeJS.Signals, signalNumber?: number) => void) => emitter.removeListener(event, listener),
    exit: (status: number) => { host.exits.push(status) },
    get exitCode(): number | undefined { return code },
    set exitCode(value: number | string | null | undefined) {
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new RangeError(`The value of "code" is out of range. It must be an integer. Received ${String(value)}`)
      code = value
    },
  }
  return host
}

/** Vitest's logger `onExit` (4.1 and 5): fills an unset exit code from the signal number, then exits. */
function vitestOnExit(host: InterruptHost, exited: string[]) {
  return (signal: NodeJS.Signals, exitCode?: number) => {
    if (host.exitCode === undefined) host.exitCode = exitCode !== undefined ? 128 + exitCode : Number(signal)
    exited.push(signal)
  }
}

/** Node emits a signal event with the name, then the number. */
function pressCtrlC(host: { emitter: EventEmitter }): void {
  host.emitter.emit('SIGINT', 'SIGINT', 2)
}

describe('drainOnInterrupt', () => {
  it('drains on the first Ctrl-C without calling the previous listeners', () => {
    const host = fakeProcess()
    const exited: string[] = []
    host.on('SIGINT', vitestOnExit(host, exited))
    const lines: string[] = []
    let drains = 0
    drainOnInterrupt(() => { drains += 1 }, line => lines.push(line), host)
    pressCtrlC(host)
    expect(drains).toBe(1)
    expect(exited).toEqual([])
    expect(host.exitCode).toBeUndefined()
    expect(lines).toEqual([expect.stringMatching(/^awb: interrupted: no new samples start/)])
  })

  it('quits on the second Ctrl-C through Vitest\'s listener with exit code 130 and a line, never a RangeError', () => {
    const host = fakeProcess()
    const exited: string[] = []
    host.on('SIGINT', vitestOnExit(host, exited))
    const lines: string[] = []
    let drains = 0
    drainOnInterrupt(() => { drains += 1 }, line => lines.push(line), host)
    pressCtrlC(host)
    expect(() => pressCtrlC(host)).not.toThrow()
    expect(drains).toBe(1)
    expect(exited).toEqual(['SIGINT'])
    expect(host.exitCode).toBe(SIGINT_EXIT_CODE)
    expect(lines[1]).toMatch(/^awb: interrupted again: the drain was cut short/)
    // SIGINT is given back: the previous listener is installed again and ours is gone.
    expect(host.emitter.listenerCount('SIGINT')).toBe(1)
  })

  it('passes the signal number to the previous listeners even for an emit that carries only the name', () => {
    const host = fakeProcess()
    const received: unknown[][] = []
    host.on('SIGINT', (...args: unknown[]) => { received.push(args) })
    drainOnInterrupt(() => {}, () => {}, host)
    host.emitter.emit('SIGINT', 'SIGINT')
    host.emitter.emit('SIGINT', 'SIGINT')
    expect(received).toEqual([['SIGINT', 2]])
    expect(host.exitCode).toBe(SIGINT_EXIT_CODE)
  })

  it('exits with 130 itself when nothing else listened for SIGINT', () => {
    const host = fakeProcess()
    const lines: string[] = []
    drainOnInterrupt(() => {}, line => lines.push(line), host)
    pressCtrlC(host)
    pressCtrlC(host)
    expect(host.exits).toEqual([SIGINT_EXIT_CODE])
    expect(lines).toHaveLength(2)
  })

  it('quits on the first Ctrl-C when there is nothing to drain (watch mode between runs)', () => {
    const host = fakeProcess()
    const exited: string[] = []
    host.on('SIGINT', vitestOnExit(host, exited))
    const lines: string[] = []
    drainOnInterrupt(() => false, line => lines.push(line), host)
    pressCtrlC(host)
    expect(exited).toEqual(['SIGINT'])
    expect(host.exitCode).toBe(SIGINT_EXIT_CODE)
    expect(lines).toEqual([expect.stringMatching(/^awb: interrupted between runs/)])
  })

  it('installs once per process: a second install is a no-op', () => {
    const host = fakeProcess()
    let drains = 0
    const restore = drainOnInterrupt(() => { drains += 1 }, () => {}, host)
    drainOnInterrupt(() => { drains += 10 }, () => {}, host)
    pressCtrlC(host)
    expect(drains).toBe(1)
    restore()
    expect(host.emitter.listenerCount('SIGINT')).toBe(0)
  })
})
