// Node only: resolves the plugin options and every user AWB_* variable into one value, once, when a run starts (the
// variable wins over the option); paths are made absolute against the project root. No I/O beyond one existence check.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type * as z from 'zod'
import { isAgentModulePath } from '../agents/index.ts'
import { DEFAULT_BWRAP, type SandboxMode, type SandboxSettings } from '../agents/sandbox/index.ts'
import { HUNG_PAGE_GRACE_MS } from '../harness/node/index.ts'
import { DEFAULT_SCORING_BACKEND, type ScoringBackendChoice } from '../scoring/gpu/index.ts'
import { BUNDLED_BENCHMARK, BUNDLED_DEMONSTRATIONS } from '../shared/package-root.ts'
import { SettingsError } from './errors.ts'
import { settingsIssue, type SettingSources } from './settings-issue.ts'
import type { Gates } from '../report/index.ts'
import { AssemblyWorldOptionsSchema, EnvironmentOnlySettingsSchema, type AssemblyWorldOptions, type ThresholdsSchema } from './schema.ts'
import { exampleAssignment, readVariable, USER_VARIABLE_NAMES, USER_VARIABLES, type Environment } from './variables/index.ts'

/** Every setting of a run, resolved: defaults filled in, paths absolute. */
export interface ResolvedSettings {
  benchmark: string
  /** The agent's name; `external` for a `{command}` agent. */
  agent: string
  /** The program of an `{command}` agent. */
  externalAgent: readonly [string, ...string[]] | undefined
  model: string | undefined
  demonstrations: string
  thresholds: Record<string, z.infer<typeof ThresholdsSchema>>
  gates: Gates
  runsRoot: string
  sampleTimeoutSeconds: number
  hungPageGraceSeconds: number
  scoringWorkers: number | undefined
  agentCommand: { command: string; args: string[] } | undefined
  effort: string | undefined
  codexConfig: string[]
  resume: string | undefined
  retryFailed: boolean
  /** How agent processes are contained: on/off, bubblewrap, the paths they never see, the spec's extra variables. */
  sandbox: SandboxSettings
  /** Score every recorded step after the run (AWB_CURVES=1); default off. */
  curves: boolean
  /** The finished run to compare with (AWB_BASELINE), absolute; checked to hold a metrics.jsonl. */
  baseline: string | undefined
  /** Write the HTML report at the end of the run (AWB_REPORT); default on. */
  report: boolean
  /** The scoring backend (AWB_SCORING_BACKEND); default `auto`. */
  scoringBackend: ScoringBackendChoice
}

const DEFAULT_SAMPLE_TIMEOUT_S = 600

/**
 * The plugin options with every user AWB_* variable over them (so CI can change a run without editing the config),
 * parsed and checked at once: a malformed value, at start, is a `SettingsError` naming the option or variable and an
 * accepted example, including the settings used only at the end of the run (curves, report, baseline) or at the
 * first score (the backend). `root` is the project root relative paths start from.
 */
export function resolveSettings(options: AssemblyWorldOptions, env: Environment, root: string): ResolvedSettings {
  const plugin: Record<string, unknown> = {}
  const environmentOnly: Record<string, unknown> = {}
  const sources: SettingSources = new Map()
  for (const name of USER_VARIABLE_NAMES) {
    const value = readVariable(env, name)
    if (value === undefined) continue
    const row = USER_VARIABLES[name]
    if (row.pluginOption) plugin[row.option] = value
    else environmentOnly[row.option] = value
    sources.set(row.option, { name, text: env[name] ?? '' })
  }
  const parsedOptions = AssemblyWorldOptionsSchema.safeParse({ ...options, ...plugin })
  if (!parsedOptions.success) throw settingsIssue(parsedOptions.error.issues[0], sources)
  const parsedOnly = EnvironmentOnlySettingsSchema.safeParse(environmentOnly)
  if (!parsedOnly.success) throw settingsIssue(parsedOnly.error.issues[0], sources)
  const value = parsedOptions.data
  const only = parsedOnly.data
  const benchmark = value.benchmark === undefined ? BUNDLED_BENCHMARK : resolve(root, value.benchmark)
  const demonstrations = value.demonstrations === undefined ? BUNDLED_DEMONSTRATIONS : resolve(root, value.demonstrations)
  const runsRoot = resolve(root, value.runsRoot ?? 'runs')
  const resume = value.resume === undefined || value.resume === 'latest' ? value.resume : resolve(root, value.resume)
  const baseline = only.baseline === undefined ? undefined : finishedRun(only.baseline, root)
  return {
    benchmark,
    // A module path is made absolute here: the page imports it by that path, wherever Vitest was started.
    agent: typeof value.agent === 'object' ? 'external' : value.agent === undefined ? 'replay' : isAgentModulePath(value.agent) ? resolve(root, value.agent) : value.agent,
    externalAgent: typeof value.agent === 'object' ? [value.agent.command[0]!, ...value.agent.command.slice(1)] : undefined,
    model: value.model,
    demonstrations,
    thresholds: value.thresholds ?? {},
    gates: value.gates ?? {},
    runsRoot,
    sampleTimeoutSeconds: value.sampleTimeoutSeconds ?? DEFAULT_SAMPLE_TIMEOUT_S,
    hungPageGraceSeconds: value.hungPageGraceSeconds ?? HUNG_PAGE_GRACE_MS / 1000,
    scoringWorkers: value.scoringWorkers,
    agentCommand: value.agentCommand === undefined ? undefined : { command: value.agentCommand[0]!, args: value.agentCommand.slice(1) },
    effort: value.effort,
    codexConfig: value.codexConfig ?? [],
    resume,
    retryFailed: value.retryFailed ?? false,
    sandbox: sandboxSettings({
      mode: value.sandbox,
      bwrap: value.bwrap,
      // The answers, earlier runs' final episodes (the runs folder, a baseline or resumed run kept elsewhere) and the
      // scripts that solve samples: never in an agent's view.
      hiddenPaths: [benchmark, runsRoot, demonstrations, ...[baseline, resume].filter((dir): dir is string => dir !== undefined && dir !== 'latest')],
      passEnv: [...new Set([...(typeof value.agent === 'object' ? value.agent.env ?? [] : []), ...(value.agentEnv ?? [])])],
    }, root),
    curves: only.curves ?? false,
    baseline,
    report: only.report ?? true,
    scoringBackend: only.scoringBackend ?? DEFAULT_SCORING_BACKEND,
  }
}

/** The sandbox settings from the `sandbox` and `bwrap` settings (unset: on, `bwrap` from PATH). */
export function sandboxSettings(settings: { mode: SandboxMode | undefined; bwrap: string | undefined; hiddenPaths: readonly string[]; passEnv: readonly string[] }, root: string): SandboxSettings {
  const { mode, bwrap, hiddenPaths, passEnv } = settings
  return {
    enabled: mode !== 'off',
    // A path is taken from the project root like the other paths; a bare name is looked up on PATH.
    bwrap: bwrap === undefined ? DEFAULT_BWRAP : bwrap.includes('/') ? resolve(root, bwrap) : bwrap,
    hiddenPaths,
    passEnv,
  }
}

/**
 * AWB_BASELINE made absolute, checked now rather than after hours of samples: the reporter reads its metrics.jsonl
 * only when the run ends.
 */
function finishedRun(baseline: string, root: string): string {
  const dir = resolve(root, baseline)
  if (!existsSync(join(dir, 'metrics.jsonl'))) {
    throw new SettingsError('SETTINGS_NOT_FOUND', `AWB_BASELINE=${baseline}: no metrics.jsonl there; point it at a finished run directory, e.g. ${exampleAssignment('AWB_BASELINE')}`)
  }
  return dir
}

/**
 * Block and source keys of thresholds and gates must name the package's blocks and sources (or `*`): a misspelt
 * key would otherwise be ignored and its gate never checked.
 */
export function assertKnownKeys(settings: Pick<ResolvedSettings, 'thresholds' | 'gates'>, blocks: readonly string[], sources: readonly string[]): void {
  const check = (where: string, keys: readonly string[], known: readonly string[], kind: string) => {
    const unknown = keys.filter(key => key !== '*' && !known.includes(key))
    if (unknown.length > 0) {
      throw new SettingsError('SETTINGS_UNKNOWN_KEY', `assemblyWorld options: ${where} names ${unknown.map(key => JSON.stringify(key)).join(', ')}, not a ${kind} of this benchmark; use one of ${known.join(', ')} or "*"`)
    }
  }
  check('thresholds (AWB_THRESHOLDS)', Object.keys(settings.thresholds), blocks, 'block')
  check('gates.blocks (AWB_GATES)', Object.keys(settings.gates.blocks ?? {}), blocks, 'block')
  check('gates.sources (AWB_GATES)', Object.keys(settings.gates.sources ?? {}), sources, 'source')
}
