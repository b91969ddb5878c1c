// What a run decides about containing its agent processes (AWB_SANDBOX, AWB_BWRAP, the agent spec's `env` list),
// as one value resolved at start by src/settings; no I/O, no parsing.
export interface SandboxSettings {
  /** False only with AWB_SANDBOX=off: agent processes then run as host processes and the run is unsandboxed. */
  enabled: boolean
  /** The bubblewrap binary: a path, or a name looked up on PATH. */
  bwrap: string
  /**
   * Folders and files no agent process may see, even where a folder it needs contains them: the benchmark package,
   * the runs folder, the demonstrations. The bundled fixtures are always added (see `alwaysHiddenPaths`).
   */
  hiddenPaths: readonly string[]
  /** Variables passed on beyond the default allow-list (the external agent spec's `env` field). */
  passEnv: readonly string[]
}

/** `bwrap` from PATH (Debian's and Ubuntu's `bubblewrap` package installs /usr/bin/bwrap). */
export const DEFAULT_BWRAP = 'bwrap'

/** What an agent process gets when its caller says nothing: sandboxed, fail closed. */
export const DEFAULT_SANDBOX: SandboxSettings = { enabled: true, bwrap: DEFAULT_BWRAP, hiddenPaths: [], passEnv: [] }

/** The values of AWB_SANDBOX / the `sandbox` plugin option. */
export const SANDBOX_MODES = ['on', 'off'] as const
export type SandboxMode = (typeof SANDBOX_MODES)[number]

/** A portable environment variable name (POSIX): what `env` in an agent spec may list. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The agents that run as processes on the host (AgentSpec kind `cli`): the ones the sandbox contains. */
export const SANDBOXED_AGENTS = ['codex', 'claude', 'external'] as const

/**
 * True when a run's agent processes run without the sandbox: its agent is one of `SANDBOXED_AGENTS` and the sandbox
 * is switched off (AWB_SANDBOX=off). Such a run's records must say so (run.json, summary.md, JUnit).
 */
export function runsUnsandboxed(agent: string, settings: SandboxSettings): boolean {
  return !settings.enabled && (SANDBOXED_AGENTS as readonly string[]).includes(agent)
}
