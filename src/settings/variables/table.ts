// The one table of the environment variables we read, each mapped to the setting it sets, its kind, an accepted
// example and its meaning; beside it, the AWB_* names we only set (for agent programs) or use internally. Data only,
// and no imports: the `awb` commands read their variables through it without loading the modules the settings'
// schemas need.

/**
 * How a variable's text is read: `text` as is, `number` a finite number, `flag` 1/0 (also true/false, yes/no),
 * `json` a JSON value, `enum` one of a closed list of words (`values`), `text-or-json` JSON
 * when it starts with `{`, else text. An empty value is the same as an unset one for every kind.
 */
export const SETTING_KINDS = ['text', 'number', 'flag', 'json', 'enum', 'text-or-json'] as const
export type SettingKind = (typeof SETTING_KINDS)[number]

/** One variable a user sets. */
export interface UserVariable {
  /** The setting it sets: a key of the plugin options when `pluginOption`, else one only the environment sets. */
  option: string
  /** True when the Vitest config can set it too (`assemblyWorld({ [option]: … })`); the variable then wins. */
  pluginOption: boolean
  kind: SettingKind
  /** An accepted value, exactly as written in the environment; shown in every error about the variable (tested). */
  example: string
  /** The accepted words of an `enum` (the same as its setting's schema: checked where the schema is, schema.ts). */
  values?: readonly string[]
  /** What it does, in one line. */
  meaning: string
}

/** Every AWB_* variable a user sets, parsed when the run starts (src/settings/resolve-settings.ts) or a command runs. */
export const USER_VARIABLES = {
  AWB_BENCHMARK: { option: 'benchmark', pluginOption: true, kind: 'text', example: '/data/assemblyworldbench', meaning: 'the benchmark package directory; default: the bundled fixtures/awb-mini' },
  AWB_AGENT: { option: 'agent', pluginOption: true, kind: 'text-or-json', example: '{"command": ["python3", "agent.py"], "env": ["OPENAI_API_KEY"]}', meaning: 'the agent: replay (default), idle, codex, claude, openai:<model>, anthropic:<model>, ./my-agent.ts, or a {"command": [...]} program' },
  AWB_MODEL: { option: 'model', pluginOption: true, kind: 'text', example: 'claude-sonnet-4-5', meaning: 'the model name passed to model-backed agents' },
  AWB_DEMONSTRATIONS: { option: 'demonstrations', pluginOption: true, kind: 'text', example: 'fixtures/demonstrations', meaning: 'the calls scripts of the replay agent' },
  AWB_THRESHOLDS: { option: 'thresholds', pluginOption: true, kind: 'json', example: '{"*": {"SR": 0.5}}', meaning: 'per block (or *): the SR/PA every test of the block asserts' },
  AWB_GATES: { option: 'gates', pluginOption: true, kind: 'json', example: '{"overall": {"SR": 0.5}, "blocks": {"*": {"PA": 0.6}}}', meaning: 'aggregate gates (blocks, sources, overall, vs_baseline); a failed gate fails the run' },
  AWB_RUNS: { option: 'runsRoot', pluginOption: true, kind: 'text', example: 'runs', meaning: 'the parent folder of run directories' },
  AWB_TIMEOUT_SECONDS: { option: 'sampleTimeoutSeconds', pluginOption: true, kind: 'number', example: '600', meaning: 'the per-sample time limit of the agent, in seconds' },
  AWB_HUNG_PAGE_GRACE_SECONDS: { option: 'hungPageGraceSeconds', pluginOption: true, kind: 'number', example: '60', meaning: 'how long a silent page may stay past the time limit before it is closed, in seconds (at least 10)' },
  AWB_SCORING_WORKERS: { option: 'scoringWorkers', pluginOption: true, kind: 'number', example: '4', meaning: 'scoring worker threads; default: the CPU count, at most 8' },
  AWB_RESUME: { option: 'resume', pluginOption: true, kind: 'text', example: 'latest', meaning: 'continue a run chain: a run directory, or latest' },
  AWB_RETRY_FAILED: { option: 'retryFailed', pluginOption: true, kind: 'flag', example: '1', meaning: 'with AWB_RESUME: run the chain\'s failed samples again too' },
  AWB_AGENT_ENV: { option: 'agentEnv', pluginOption: true, kind: 'json', example: '["AWS_REGION"]', meaning: 'more variables, by name, passed to agent processes beyond the sandbox\'s allow-list' },
  AWB_AGENT_COMMAND: { option: 'agentCommand', pluginOption: true, kind: 'json', example: '["node", "wrapper.mjs"]', meaning: 'a program run instead of codex / claude' },
  AWB_EFFORT: { option: 'effort', pluginOption: true, kind: 'text', example: 'high', meaning: 'the reasoning effort passed to Codex / Claude Code' },
  AWB_CODEX_CONFIG: { option: 'codexConfig', pluginOption: true, kind: 'json', example: '["model_provider=\\"local\\""]', meaning: 'Codex -c KEY=VALUE overrides, provider and endpoint keys only' },
  AWB_SANDBOX: { option: 'sandbox', pluginOption: true, kind: 'enum', values: ['on', 'off'], example: 'off', meaning: 'on (default): agent programs run only in the sandbox; off: as host processes, and the run says so' },
  AWB_BWRAP: { option: 'bwrap', pluginOption: true, kind: 'text', example: '/usr/bin/bwrap', meaning: 'the bubblewrap binary: a path from the project root, or a name on PATH' },
  AWB_CURVES: { option: 'curves', pluginOption: false, kind: 'flag', example: '1', meaning: 'after the run, score the world after every recorded call (curves.json, steps.arrow); off by default' },
  AWB_BASELINE: { option: 'baseline', pluginOption: false, kind: 'text', example: 'runs/<run-id>', meaning: 'a finished run directory to compare with (summary.md, the vs_baseline gate)' },
  AWB_REPORT: { option: 'report', pluginOption: false, kind: 'flag', example: '0', meaning: 'the HTML report at the end of the run; on by default, 0 skips it' },
  AWB_SCORING_BACKEND: { option: 'scoringBackend', pluginOption: false, kind: 'enum', values: ['auto', 'cpu', 'gpu'], example: 'gpu', meaning: 'the scoring backend when no --backend is given: auto (default), cpu or gpu' },
  AWB_CHROMIUM: { option: 'chromium', pluginOption: false, kind: 'text', example: '/usr/bin/chromium', meaning: 'the Chromium binary; default: the first of the usual Debian / Chrome paths' },
} as const satisfies Record<`AWB_${string}`, UserVariable>

export type UserVariableName = keyof typeof USER_VARIABLES

/**
 * The variables we set for the agent programs we start (docs/agents.md, "A program in any language"): outputs, never read here.
 * AWB_MODEL and AWB_TIMEOUT_SECONDS are also user settings: we read the user's, then hand the resolved value on.
 */
export const AGENT_PROGRAM_VARIABLES = {
  AWB_MCP_URL: 'the sample\'s MCP endpoint (Streamable HTTP on 127.0.0.1)',
  AWB_PROMPT_FILE: 'the prompt file in the workspace',
  AWB_PAGES: 'JSON array of the reference page files, in page order',
  AWB_WORKSPACE: 'the sample\'s private workspace',
  AWB_BLOCK: 'the sample\'s block',
  AWB_SAMPLE_ID: 'the sample\'s id',
  AWB_MODEL: 'the configured model name',
  AWB_TIMEOUT_SECONDS: 'seconds the program has before its process group is killed',
} as const satisfies Record<`AWB_${string}`, string>

/** AWB_* names of our own plumbing, never a user's to set. */
export const INTERNAL_VARIABLES = {
  AWB_BIN: 'the path of bin/awb.mjs that an agent CLI\'s MCP bridge runs (a constant, src/mcp/bridge-command.ts)',
  AWB_DOCTOR_STUB_KEY: 'the placeholder key `awb doctor` gives Codex for its local model stub',
} as const satisfies Record<`AWB_${string}`, string>

/** Every user variable's name, in table order. */
export const USER_VARIABLE_NAMES = Object.keys(USER_VARIABLES) as UserVariableName[]

/** The example of each JSON variable, shown when its value does not parse. */
export const JSON_EXAMPLES: Readonly<Record<string, string>> = Object.fromEntries(
  USER_VARIABLE_NAMES.filter(name => USER_VARIABLES[name].kind === 'json' || USER_VARIABLES[name].kind === 'text-or-json').map(name => [name, USER_VARIABLES[name].example]),
)
