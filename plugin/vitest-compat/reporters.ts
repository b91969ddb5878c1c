// Adds the plugin's reporters to every run, whatever the reporter selection: reporters named on the command line
// (`--reporter=junit`) replace the config's list before `configureVitest` runs, and Vitest builds its reporters right
// after it, so the plugin pushes its own onto the resolved list there (undocumented, the same in 4.1 and 5).
import type { Reporter, Vitest } from 'vitest/node'

/**
 * Vitest evaluates the config again for each project, so `configureVitest` may run on another instance of the plugin
 * than the root's `config()`: the root leaves its reporters in a process-wide slot.
 */
const REPORTER_SLOT = Symbol.for('assembly-world-bench.reporters')

/** Called by the root's `config()`: the reporters every run gets. */
export function offerReporters(reporters: readonly Reporter[]): void {
  Reflect.set(globalThis, REPORTER_SLOT, reporters)
}

/** Called from `configureVitest`: adds the offered reporters to `vitest`'s list, once each. */
export function installOfferedReporters(vitest: Vitest): void {
  const offered: unknown = Reflect.get(globalThis, REPORTER_SLOT)
  const reporters = vitest.config.reporters
  if (Array.isArray(offered)) for (const one of offered as Reporter[]) if (!reporters.includes(one)) reporters.push(one)
}
