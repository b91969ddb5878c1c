// The plugin's options: the facade over src/settings, where every option and AWB_* variable is declared and parsed.
import type * as z from 'zod'
import { runsUnsandboxed } from '../src/agents/sandbox/index.ts'
import { assertKnownKeys, resolveSettings, type AssemblyWorldOptions, type ResolvedSettings, type ThresholdsSchema } from '../src/settings/index.ts'

export { AssemblyWorldOptionsSchema, ExternalAgentOptionSchema, JSON_EXAMPLES, ThresholdsSchema, type AssemblyWorldOptions } from '../src/settings/index.ts'
export { GateSchema, GatesSchema } from '../src/report/index.ts'
export { BUNDLED_BENCHMARK, BUNDLED_DEMONSTRATIONS, BUNDLED_FIXTURES, BUNDLED_GENERATOR } from '../src/shared/package-root.ts'
export { assertKnownKeys }

/** The options of a run, resolved once at start (src/settings `ResolvedSettings`). */
export type ResolvedOptions = ResolvedSettings

/**
 * Plugin options, overridden by AWB_* variables (so CI can change a run without editing the config); every setting
 * is checked here, those used only at the end of the run or at the first score included. Throws `SettingsError`.
 */
export function resolveOptions(options: AssemblyWorldOptions = {}, env: NodeJS.ProcessEnv = process.env, root = process.cwd()): ResolvedOptions {
  return resolveSettings(options, env, root)
}

/**
 * True when this run's agent programs (external, Codex, Claude Code) run without the sandbox (AWB_SANDBOX=off):
 * run.json, summary.md and JUnit must then mark the run unsandboxed.
 */
export function isUnsandboxedRun(options: ResolvedOptions): boolean {
  return runsUnsandboxed(options.agent, options.sandbox)
}

/** The thresholds for `block`: its own entry over the `*` entry. */
export function thresholdsFor(options: ResolvedOptions, block: string): z.infer<typeof ThresholdsSchema> {
  return { ...options.thresholds['*'], ...options.thresholds[block] }
}
