// Ctrl-C drains a run instead of dropping it: the first SIGINT stops dispatch and lets the samples in flight save
// and score their world (recorded `interrupted`), so summaries are written and `AWB_RESUME` can continue; a second
// SIGINT quits at once, as Vitest would have. Vitest 4.1 and 5 install the same listener (its logger's `onExit`, which
// exits 1 ms later), so one implementation serves both.

/** The exit status of a process ended by SIGINT: 128 + the signal's number (2), as shells and Node report it. */
export const SIGINT_EXIT_CODE = 130
/** SIGINT's number on every platform Node supports; Node passes it to signal listeners after the name. */
const SIGINT_NUMBER = 2

/**
 * A SIGINT listener as Node calls it: the signal's name, then its number. `@types/node` declares the name alone, which
 * is how a forwarded call lost the number Vitest's listener reads.
 */
type SignalListener = (signal: NodeJS.Signals, signalNumber?: number) => void

/** What the drain needs of `process`: tests pass a stand-in so no real signal or exit is involved. */
export interface InterruptHost {
  listeners(event: 'SIGINT'): SignalListener[]
  on(event: 'SIGINT', listener: SignalListener): unknown
  removeListener(event: 'SIGINT', listener: SignalListener): unknown
  exit(code: number): void
  exitCode?: number | string | null | undefined
}

/**
 * Takes over SIGINT from the listeners present now (Vitest's, which exit the process 1 ms later). Returns a
 * function that gives SIGINT back. Installing twice is a no-op. `onFirst` returns false when there is nothing to drain
 * (watch mode between runs): that SIGINT quits at once.
 */
export function drainOnInterrupt(onFirst: () => boolean | void, log: (line: string) => void, host: InterruptHost = process): () => void {
  const slot = Symbol.for('assembly-world-bench.sigint')
  if (Reflect.get(host, slot) === true) return () => {}
  Reflect.set(host, slot, true)
  const previous = host.listeners('SIGINT')
  for (const listener of previous) host.removeListener('SIGINT', listener)
  let interrupted = false
  const restore = () => {
    host.removeListener('SIGINT', onSignal)
    for (const listener of previous) host.on('SIGINT', listener)
    Reflect.set(host, slot, false)
  }
  function onSignal(signal: NodeJS.Signals, signalNumber?: number): void {
    const idle = !interrupted && onFirst() === false
    if (interrupted || idle) {
      restore()
      log(idle ? 'awb: interrupted between runs: exiting with 130.' : 'awb: interrupted again: the drain was cut short; samples still in flight stay unfinished (AWB_RESUME runs them again). Exiting with 130.')
      // Set the status before Vitest's listener runs: it only fills an unset `exitCode`, from the signal number it
      // expects as the second argument, and a listener called with the name alone computes `Number('SIGINT')`, NaN,
      // which Node rejects with a RangeError instead of exiting.
      host.exitCode = SIGINT_EXIT_CODE
      if (previous.length === 0) {
        host.exit(SIGINT_EXIT_CODE)
        return
      }
      // Forward what Node passed (`'SIGINT', 2`), defaulting the number for a bare `emit('SIGINT')`.
      for (const listener of previous) listener(signal, signalNumber ?? SIGINT_NUMBER)
      return
    }
    interrupted = true
    log('awb: interrupted: no new samples start; samples in flight save their world and are recorded as interrupted. Press Ctrl-C again to quit now.')
  }
  host.on('SIGINT', onSignal)
  return restore
}
