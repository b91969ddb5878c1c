// The schemas of every setting: the plugin options (`AssemblyWorldOptionsSchema`) and the settings only the environment
// sets (`EnvironmentOnlySettingsSchema`); which variable sets which key is in variables/table.ts. Schemas only.
import * as z from 'zod'
import { ENV_NAME_PATTERN, SANDBOX_MODES, type SandboxMode } from '../agents/sandbox/index.ts'
import { MIN_HUNG_PAGE_GRACE_S } from '../harness/node/index.ts'
import { GatesSchema } from '../report/index.ts'
import { ScoringBackendChoiceSchema, type ScoringBackendChoice } from '../scoring/gpu/index.ts'
import { MAX_SCORING_WORKERS } from '../scoring/workers/index.ts'
import type { RawVariableValue, USER_VARIABLES } from './variables/index.ts'

/** Thresholds asserted in every test of a block: a sample fails when its SR or PA is below them. */
export const ThresholdsSchema = z.strictObject({
  SR: z.number().min(0).max(1).optional(),
  PA: z.number().min(0).max(1).optional(),
})

/** A bring-your-own agent program: argv, run in the sample's workspace (docs/agents.md, "A program in any language"). */
export const ExternalAgentOptionSchema = z.strictObject({
  command: z.array(z.string().min(1)).min(1),
  /** Variables passed to the program beyond the default allow-list (docs/agents.md, "The agent sandbox"): names, never values. */
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

/** Settings only the environment sets (no plugin option): what the run does at its end, and how it scores. */
export const EnvironmentOnlySettingsSchema = z.strictObject({
  /** Score every recorded step after the run (AWB_CURVES=1); off by default: it costs one official score per state. */
  curves: z.boolean().optional(),
  /** A finished run directory to compare with (AWB_BASELINE). */
  baseline: z.string().min(1).optional(),
  /** The HTML report at the end of the run (AWB_REPORT); on by default. */
  report: z.boolean().optional(),
  /** The scoring backend (AWB_SCORING_BACKEND); default auto. */
  scoringBackend: ScoringBackendChoiceSchema.optional(),
  /** The Chromium binary (AWB_CHROMIUM); read by `findChromium` wherever a browser starts. */
  chromium: z.string().min(1).optional(),
})
export type EnvironmentOnlySettings = z.infer<typeof EnvironmentOnlySettingsSchema>

// The table and the schemas name the same settings, and an enum row lists its schema's words: a row whose `option`
// is no schema key, a schema key no row sets, or a word list that differs fails to compile here.
type OptionsSetBy<IsPluginOption extends boolean> = {
  [N in keyof typeof USER_VARIABLES]: (typeof USER_VARIABLES)[N]['pluginOption'] extends IsPluginOption ? (typeof USER_VARIABLES)[N]['option'] : never
}[keyof typeof USER_VARIABLES]
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
export type _TableMatchesSchemas = Holds<SameKeys<OptionsSetBy<true>, keyof AssemblyWorldOptions>> & Holds<SameKeys<OptionsSetBy<false>, keyof EnvironmentOnlySettings>>
  & Holds<SameKeys<RawVariableValue<'AWB_SANDBOX'>, SandboxMode>> & Holds<SameKeys<RawVariableValue<'AWB_SCORING_BACKEND'>, ScoringBackendChoice>>
