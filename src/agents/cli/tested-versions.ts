// The agent CLI versions the project's tests run (the one definition: the test installer takes its versions from
// here, `awb doctor` compares the installed CLI against it), and the `--version` parsing that comparison needs; pure.
import type { CliAgentKind } from './cli-agent-kind.ts'

/** One agent CLI as users install it: its npm package, the binary it puts on PATH, the versions the tests run. */
export interface TestedCli {
  pkg: string
  bin: string
  /** Exact versions, oldest first: the oldest supported, then the newest when the list was last changed. */
  versions: readonly string[]
}

/**
 * The CLIs move fast, so the tests cover both ends of what is supported. Codex has one version: its npm `latest`
 * was still 0.171.0 when Claude Code 2.1.332 (`latest` on 2026-12-04) was added, so oldest and newest coincide.
 */
export const TESTED_CLI_VERSIONS = {
  claude: { pkg: '@anthropic-ai/claude-code', bin: 'claude', versions: ['2.1.197', '2.1.332'] },
  codex: { pkg: '@openai/codex', bin: 'codex', versions: ['0.171.0'] },
} as const satisfies Record<CliAgentKind, TestedCli>

/**
 * The first semantic version in a `--version` answer (`2.1.197 (Claude Code)`, `codex-cli 0.171.0`, `v1.2.3-beta.1`),
 * prerelease kept, build metadata dropped; null when there is none. Four-part numbers (`1.2.3.4`) are not semver.
 */
export function parseCliVersion(text: string): string | null {
  const match = /(?<![\d.])(\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?!\d|\.\d)/.exec(text)
  return match?.[1] ?? null
}

export interface CliVersionCoverage {
  /** The parsed version, or null when the answer held none. */
  version: string | null
  /** True only for an exact match: a patch release in between may already behave differently. */
  isTested: boolean
  /** `tested`, or `untested: the tests cover 2.1.197, 2.1.332` (with why when no version could be read). */
  verdict: string
}

/** Whether the CLI that answered `versionText` to `--version` is a version the tests run. */
export function cliVersionCoverage(kind: CliAgentKind, versionText: string): CliVersionCoverage {
  const version = parseCliVersion(versionText)
  const { bin, versions } = TESTED_CLI_VERSIONS[kind]
  const tested: readonly string[] = versions
  const isTested = version !== null && tested.includes(version)
  const covered = `the tests cover ${tested.join(', ')}`
  const verdict = isTested ? 'tested' : version === null ? `untested: no version in \`${bin} --version\`; ${covered}` : `untested: ${covered}`
  return { version, isTested, verdict }
}
