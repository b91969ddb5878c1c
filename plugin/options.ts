// The plugin's options: one zod schema, each option also settable by an AWB_* environment variable for CI.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import * as z from 'zod'
import { isAgentModulePath } from '../src/agents/index.ts'
import { DEFAULT_BWRAP, ENV_NAME_PATTERN, runsUnsandboxed, SANDBOX_MODES, type SandboxSettings } from '../src/agents/sandbox/index.ts'
import { HUNG_PAGE_GRACE_MS, MIN_HUNG_PAGE_GRACE_S } from '../src/harness/node/index.ts'
import { runOutputSettings } from '../src/report/index.ts'
import { scoringBackendFromEnv } from '../src/scoring/gpu/index.ts'
import { MAX_SCORING_WORKERS } from '../src/scoring/workers/index.ts'
import { BUNDLED_BENCHMARK, BUNDLED_DEMONSTRATIONS } from '../src/shared/package-root.ts'

/** Thresholds asserted in every test of a block: a sample fails when its SR or PA is below them. */
export const ThresholdsSchema = z.strictObject({
  SR: z.number().min(0).max(1).optional(),
  PA: z.number().min(0).max(1).optional(),
})

/** Minimum aggregate values; SCD is a maximum (lower is better). */
export const GateSchema = z.strictObject({
  SR: z.number().min(0).max(1).optional(),
  PA: z.number().min(0).max(1).optional(),
  SCD: z.number().min(0).optional(),
})

export const GatesSchema = z.strictObject({
  /** Per block name, or `*` for every block. */
  blocks: z.record(z.string(), GateSchema).optional(),
  /** Per source name, or `*` for every source. */
  sources: z.record(z.string(), GateSchema).optional(),
  overall: GateSchema.optional(),
  /** Against the AWB_BASELINE run: allowed SR/PA drop (≤ 0) and SCD rise (≥ 0); fails only when significantly worse. */
  vs_baseline: z.strictObject({ SR: z.number().max(0).optional(), PA: z.number().max(0).optional(), SCD: z.number().min(0).optional() }).optional(),
})

/** A bring-your-own agent program: argv, run in the sample's workspace (README, "Bring your own agent"). */
export const ExternalAgentOptionSchema = z.strictObject({
  command: z.array(z.string().min(1)).min(1),
  /** Variables passed to the program beyond the default allow-list (README, "Agent sandbox"): names, never values. */
  env: z.array(z.string().regex(ENV_NAME_PATTERN, 'an environment variable name (letters, digits, _), e.g. "OPENAI_API_KEY"')).optional(),
})

export const AssemblyWorldOptionsSchema = z.strictObject({
  /** Benchmark package directory (AWB_BENCHMARK); default: the bundled `fixtures/awb-mini`. */
  benchmark: z.string().min(1).optional(),
  /**
   * Agent (AWB_AGENT): `replay` (default), `idle`, `codex`, `claude`, `openai:<model>`, `anthropic:<model>`, a page
   * agent module `./my-agent.ts`, or `{command: ['python3', 'agent.py']}`, a program in any language run per sample
   * against its MCP endpoint (AWB_AGENT as that JSON object).
   */
  agent: z.union([z.string().min(1), ExternalAgentOptionSchema]).optional(),
  /** Model name passed to model-backed agents (AWB_MODEL). */
  model: z.string().min(1).optional(),
  /** Calls scripts of the replay agent (AWB_DEMONSTRATIONS); default: `fixtures/demonstrations`. */
  demonstrations: z.string().min(1).optional(),
  /** Per block name (or `*`), asserted in each test (AWB_THRESHOLDS as JSON). */
  thresholds: z.record(z.string(), ThresholdsSchema).optional(),
  /** Aggregate gates that fail the run (AWB_GATES as JSON). */
  gates: GatesSchema.optional(),
  /** Parent folder of run directories (AWB_RUNS); default `runs`. */
  runsRoot: z.string().min(1).optional(),
  /** Per-sample limit for the agent in seconds (AWB_TIMEOUT_SECONDS); default 600. */
  sampleTimeoutSeconds: z.number().positive().optional(),
  /**
   * How long a page agent that never yields may hold its page past the time limit, silent, before the page is closed
   * (AWB_HUNG_PAGE_GRACE_SECONDS); default 60, at least 10 (pages check in every second).
   */
  hungPageGraceSeconds: z.number().min(MIN_HUNG_PAGE_GRACE_S, `at least ${MIN_HUNG_PAGE_GRACE_S} s: a page that is only busy for a while must not be closed`).optional(),
  /** Scoring worker threads (AWB_SCORING_WORKERS); default: CPU count, at most 8. */
  scoringWorkers: z.number().int().min(0).max(MAX_SCORING_WORKERS, `at most ${MAX_SCORING_WORKERS} scoring workers`).optional(),
  /** Continue a run chain (AWB_RESUME): a run directory, or `latest` (the newest in runsRoot). */
  resume: z.string().min(1).optional(),
  /** With resume: run the chain's failed samples again too (AWB_RETRY_FAILED=1). */
  retryFailed: z.boolean().optional(),
  /**
   * More environment variables, by name, for every agent process (CLI agents, their AWB_AGENT_COMMAND wrapper, external
   * programs) beyond the default allow-list (AWB_AGENT_ENV, a JSON array): e.g. `["AWS_PROFILE", "AWS_REGION"]` for
   * Claude Code on Bedrock. An external agent can also list them in its own `env` field.
   */
  agentEnv: z.array(z.string().regex(ENV_NAME_PATTERN, 'an environment variable name (letters, digits, _), e.g. "AWS_REGION"')).optional(),
  /** Runs instead of `codex` / `claude` (AWB_AGENT_COMMAND, a JSON array): `["node", "wrapper.mjs"]`. */
  agentCommand: z.array(z.string().min(1)).min(1).optional(),
  /** Reasoning effort passed to Codex (`model_reasoning_effort`) / Claude Code (`--effort`) (AWB_EFFORT), free text. */
  effort: z.string().min(1).optional(),
  /**
   * Codex `-c KEY=VALUE` overrides (AWB_CODEX_CONFIG, a JSON array): provider and endpoint keys only
   * (`model_provider`, `model_providers.*`, `openai_base_url`, `model_context_window`).
   */
  codexConfig: z.array(z.string().min(1)).optional(),
  /**
   * The sandbox of external programs and agent CLIs (AWB_SANDBOX): `on` (default; a sample is refused when it cannot
   * start) or `off` (they run as host processes; the run is recorded as unsandboxed).
   */
  sandbox: z.enum(SANDBOX_MODES).optional(),
  /** The bubblewrap binary (AWB_BWRAP): a path, or a name on PATH; default `bwrap`. */
  bwrap: z.string().min(1).optional(),
})
export type AssemblyWorldOptions = z.infer<typeof AssemblyWorldOptionsSchema>

export interface ResolvedOptions {
  benchmark: string
  /** The agent's name; `external` for a `{command}` agent. */
  agent: string
  /** The program of an `{command}` agent. */
  externalAgent: readonly [string, ...string[]] | undefined
  model: string | undefined
  demonstrations: string
  thresholds: Record<string, z.infer<typeof ThresholdsSchema>>
  gates: z.infer<typeof GatesSchema>
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
}

const DEFAULT_SAMPLE_TIMEOUT_S = 600

export { BUNDLED_BENCHMARK, BUNDLED_DEMONSTRATIONS, BUNDLED_FIXTURES, BUNDLED_GENERATOR } from '../src/shared/package-root.ts'

/** A valid value of each JSON variable, shown when one does not parse (each is accepted by the schema; tested). */
export const JSON_EXAMPLES: Record<string, string> = {
  AWB_THRESHOLDS: '{"*": {"SR": 0.5}}',
  AWB_GATES: '{"overall": {"SR": 0.5}, "blocks": {"*": {"PA": 0.6}}}',
  AWB_AGENT_COMMAND: '["node", "wrapper.mjs"]',
  AWB_AGENT: '{"command": ["python3", "agent.py"], "env": ["OPENAI_API_KEY"]}',
  AWB_CODEX_CONFIG: '["model_provider=\\"local\\""]',
  AWB_AGENT_ENV: '["AWS_REGION"]',
}

/**
 * Block and source keys of thresholds and gates must name the package's blocks and sources (or `*`): a misspelt
 * key would otherwise be ignored and its gate never checked.
 */
export function assertKnownKeys(options: ResolvedOptions, blocks: readonly string[], sources: readonly string[]): void {
  const check = (where: string, keys: readonly string[], known: readonly string[], kind: string) => {
    const unknown = keys.filter(key => key !== '*' && !known.includes(key))
    if (unknown.length > 0) throw new Error(`assemblyWorld options: ${where} names ${unknown.map(key => JSON.stringify(key)).join(', ')}, not a ${kind} of this benchmark; use one of ${known.join(', ')} or "*"`)
  }
  check('thresholds (AWB_THRESHOLDS)', Object.keys(options.thresholds), blocks, 'block')
  check('gates.blocks (AWB_GATES)', Object.keys(options.gates.blocks ?? {}), blocks, 'block')
  check('gates.sources (AWB_GATES)', Object.keys(options.gates.sources ?? {}), sources, 'source')
}

/** AWB_* variables as options; a malformed value is an error naming the variable. */
function optionsFromEnv(env: NodeJS.ProcessEnv): Partial<AssemblyWorldOptions> {
  const json = (name: string): unknown => {
    const text = env[name]
    if (text === undefined || text === '') return undefined
    try {
      return JSON.parse(text)
    } catch {
      throw new Error(`${name} must be JSON, e.g. ${name}='${JSON_EXAMPLES[name] ?? '{}'}'`)
    }
  }
  const number = (name: string): number | undefined => {
    const text = env[name]
    if (text === undefined || text === '') return undefined
    const value = Number(text)
    if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got "${text}"`)
    return value
  }
  const text = (name: string): string | undefined => (env[name] === '' ? undefined : env[name])
  const flag = (name: string): boolean | undefined => {
    const value = env[name]
    if (value === undefined || value === '') return undefined
    if (/^(1|true|yes)$/i.test(value)) return true
    if (/^(0|false|no)$/i.test(value)) return false
    throw new Error(`${name} must be 1 or 0 (true or false), got "${value}"`)
  }
  const fromEnv = {
    benchmark: text('AWB_BENCHMARK'),
    // A JSON object is an external agent (`{"command": ["python3", "agent.py"]}`), anything else a name.
    agent: env.AWB_AGENT?.trim().startsWith('{') === true ? json('AWB_AGENT') : text('AWB_AGENT'),
    model: text('AWB_MODEL'),
    demonstrations: text('AWB_DEMONSTRATIONS'),
    thresholds: json('AWB_THRESHOLDS'),
    gates: json('AWB_GATES'),
    runsRoot: text('AWB_RUNS'),
    sampleTimeoutSeconds: number('AWB_TIMEOUT_SECONDS'),
    hungPageGraceSeconds: number('AWB_HUNG_PAGE_GRACE_SECONDS'),
    scoringWorkers: number('AWB_SCORING_WORKERS'),
    agentCommand: json('AWB_AGENT_COMMAND'),
    agentEnv: json('AWB_AGENT_ENV'),
    effort: text('AWB_EFFORT'),
    codexConfig: json('AWB_CODEX_CONFIG'),
    resume: text('AWB_RESUME'),
    retryFailed: flag('AWB_RETRY_FAILED'),
    sandbox: text('AWB_SANDBOX'),
    bwrap: text('AWB_BWRAP'),
  }
  return Object.fromEntries(Object.entries(fromEnv).filter(([, value]) => value !== undefined)) as Partial<AssemblyWorldOptions>
}

/** Plugin options, overridden by AWB_* variables (so CI can change a run without editing the config). */
export function resolveOptions(options: AssemblyWorldOptions = {}, env: NodeJS.ProcessEnv = process.env, root = process.cwd()): ResolvedOptions {
  const merged = { ...options, ...optionsFromEnv(env) }
  const parsed = AssemblyWorldOptionsSchema.safeParse(merged)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`assemblyWorld options: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'} (from the plugin options or the matching AWB_* variable)`)
  }
  const value = parsed.data
  checkLaterSettings(env, root)
  const benchmark = value.benchmark === undefined ? BUNDLED_BENCHMARK : resolve(root, value.benchmark)
  const demonstrations = value.demonstrations === undefined ? BUNDLED_DEMONSTRATIONS : resolve(root, value.demonstrations)
  const runsRoot = resolve(root, value.runsRoot ?? 'runs')
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
    resume: value.resume === undefined || value.resume === 'latest' ? value.resume : resolve(root, value.resume),
    retryFailed: value.retryFailed ?? false,
    sandbox: {
      enabled: value.sandbox !== 'off',
      // A path is taken from the project root like the other paths; a bare name is looked up on PATH.
      bwrap: value.bwrap === undefined ? DEFAULT_BWRAP : value.bwrap.includes('/') ? resolve(root, value.bwrap) : value.bwrap,
      // The answers, earlier runs' final episodes and the scripts that solve samples: never in an agent's view.
      hiddenPaths: [benchmark, runsRoot, demonstrations],
      passEnv: [...new Set([...(typeof value.agent === 'object' ? value.agent.env ?? [] : []), ...(value.agentEnv ?? [])])],
    },
  }
}

/**
 * True when this run's agent programs (external, Codex, Claude Code) run without the sandbox (AWB_SANDBOX=off):
 * run.json, summary.md and JUnit must then mark the run unsandboxed.
 */
export function isUnsandboxedRun(options: ResolvedOptions): boolean {
  return runsUnsandboxed(options.agent, options.sandbox)
}

/**
 * The variables that are read later — by the reporter at the end of the run (AWB_CURVES, AWB_REPORT, AWB_BASELINE) and
 * by the scorer at the first score (AWB_SCORING_BACKEND) — checked now, with the same parsers, so that a typo stops the
 * run before its first sample instead of after hours of samples.
 */
function checkLaterSettings(env: NodeJS.ProcessEnv, root: string): void {
  runOutputSettings(env)
  scoringBackendFromEnv(env)
  const baseline = env.AWB_BASELINE
  if (baseline !== undefined && baseline !== '' && !existsSync(join(resolve(root, baseline), 'metrics.jsonl'))) {
    throw new Error(`AWB_BASELINE=${baseline}: no metrics.jsonl there; point it at a finished run directory, e.g. AWB_BASELINE=runs/<run-id>`)
  }
}

/** The thresholds for `block`: its own entry over the `*` entry. */
export function thresholdsFor(options: ResolvedOptions, block: string): z.infer<typeof ThresholdsSchema> {
  return { ...options.thresholds['*'], ...options.thresholds[block] }
}
