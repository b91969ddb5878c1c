// How the suite starts a child Vitest of this checkout (`vitest run`, `watch`, `list`): the one place that names its CLI
// and the arguments every child run starts with (test/unit/repo/vitest-children.test.ts keeps it the only one).
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..', '..')

/** The checkout's Vitest CLI, run with `process.execPath`. */
export const VITEST_CLI = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')

/**
 * Where this Node strips TypeScript types itself (Node 22.18+, 24), Vite imports the config and the plugin source as
 * they are (`--configLoader native`) instead of bundling the config with its ~340 plugin modules through Rolldown for
 * each child run: it saves about 1.5 of the ~10 CPU-seconds (the whole machine's) that a one-sample child run costs,
 * mostly Rolldown's system time, net of the 0.8 CPU-s Node spends stripping the types. The source stays loadable this
 * way because tsconfig.json sets `erasableSyntaxOnly`. A user's config keeps Vite's default loader:
 * user-project.test.ts runs the installed package as users do.
 */
const CONFIG_LOADER: readonly string[] = process.features.typescript === 'strip' || process.features.typescript === 'transform' ? ['--configLoader', 'native'] : []

/** The argument list after `process.execPath` for `vitest <command> ...args`. */
export function vitestCli(command: 'run' | 'watch' | 'list', args: readonly string[]): string[] {
  return [VITEST_CLI, command, ...CONFIG_LOADER, ...args]
}
