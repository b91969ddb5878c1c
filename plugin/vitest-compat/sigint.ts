// Ctrl-C drains a run instead of dropping it: the first SIGINT stops dispatch and lets the samples in flight save
// and score their world (recorded `interrupted`), so summaries are written and `AWB_RESUME` can continue; a second
// SIGINT quits at once, as Vitest would have. Vitest 4.1 and 5 install the same listener (its logger's `onExit`, which
// exits 1 ms later), so one implementation serves both.

/**
 * Takes over SIGINT from the listeners present now (Vitest's, which exit the process 1 ms later). Returns a
 * function that gives SIGINT back. Installing twice is a no-op.
 */
export function drainOnInterrupt(onFirst: () => void, log: (line: string) => void): () => void {
  const slot = Symbol.for('assembly-world-bench.sigint')
  if (Reflect.get(process, slot) === true) return () => {}
  Reflect.set(process, slot, true)
  const previous = process.listeners('SIGINT')
  for (const listener of previous) process.removeListener('SIGINT', listener)
  let interrupted = false
  const restore = () => {
    process.removeListener('SIGINT', onSignal)
    for (const listener of previous) process.on('SIGINT', listener)
    Reflect.set(process, slot, false)
  }
  function onSignal(signal: NodeJS.Signals): void {
    if (interrupted) {
      restore()
      if (previous.length === 0) process.exit(130)
      for (const listener of previous) listener(signal)
      return
    }
    interrupted = true
    log('awb: interrupted: no new samples start; samples in flight save their world and are recorded as interrupted. Press Ctrl-C again to quit now.')
    onFirst()
  }
  process.on('SIGINT', onSignal)
  return restore
}
