// The declarative table of `awb` commands: usage, flags and a lazy loader per command; no behaviour here.

export interface CommandOption {
  /** cac flag syntax, e.g. `--json` or `--workers <n>`. */
  flags: string
  description: string
  default?: unknown
}

/** A command module: `run` gets cac's action arguments (positionals, then the options object) and returns the exit code. */
export interface CommandModule {
  run(args: unknown[]): Promise<number>
}

export interface CommandSpec {
  usage: string
  description: string
  options: CommandOption[]
  /** Imported only when the command runs, so `awb --help` stays fast. */
  load(): Promise<CommandModule>
}

export const COMMANDS: CommandSpec[] = [
  {
    usage: 'validate [package-dir]',
    description: 'Check a benchmark package: layout, schemas, hashes, every episode; exit 0 only when clean',
    options: [{ flags: '--json', description: 'Print one JSON report on stdout instead of lines' }],
    load: () => import('./commands/validate.ts'),
  },
  {
    usage: 'score',
    description: 'Score final poses or a final episode against an evaluation.json (one JSON object on stdout)',
    options: [
      { flags: '--evaluation <file>', description: 'The evaluation.json (ground truth)' },
      { flags: '--poses <file>', description: 'Final poses: {"<part_id>": {"position": [x,y,z], "quaternion": [w,x,y,z]}}' },
      { flags: '--episode <file>', description: 'Final episode archive (with --initial)' },
      { flags: '--initial <file>', description: 'Initial episode archive the final one must match' },
      { flags: '--json', description: 'Compact JSON (default: indented)' },
      { flags: '--candidates', description: 'Include every alignment start in the output' },
      { flags: '--workers <n>', description: 'Worker threads for the alignment starts (default: CPU count, at most 8)' },
      { flags: '--kernel <name>', description: 'ICP implementation: cells (default, fastest), wasm or js (the plain-JS reference); same result' },
      { flags: '--backend <name>', description: 'Scoring backend: auto (default, or AWB_SCORING_BACKEND: the GPU only when it is hardware and measured faster), cpu or gpu; same result' },
    ],
    load: () => import('./commands/score.ts'),
  },
  {
    usage: 'eval <...runDirs>',
    description: 'Score recorded runs into metrics.jsonl and summary.json with the official rules',
    options: [
      { flags: '--benchmark <dir>', description: 'The benchmark package the runs were made on (default: the one their run.json records)' },
      { flags: '--output <dir>', description: 'A new directory for metrics.jsonl and summary.json (must not exist)' },
      { flags: '--workers <n>', description: 'Worker threads for scoring' },
      { flags: '--kernel <name>', description: 'ICP implementation: cells (default), wasm or js; same result' },
      { flags: '--backend <name>', description: 'Scoring backend: auto (default, or AWB_SCORING_BACKEND: the GPU only when it is hardware and measured faster), cpu or gpu; same result' },
    ],
    load: () => import('./commands/eval.ts'),
  },
  {
    usage: 'status [run-dir]',
    description: 'Where a run chain stands: per block done / failed / running / interrupted / pending, cost so far (default: the newest run)',
    options: [
      { flags: '--runs <dir>', description: 'Folder of run directories, for the default `latest` (default: runs)' },
      { flags: '--json', description: 'Print {run, status, samples, counts} as JSON (runner.md §7.1)' },
      { flags: '--benchmark <dir>', description: 'The package the run was made on (default: the one recorded in run.json)' },
    ],
    load: () => import('./commands/status.ts'),
  },
  {
    usage: 'curves <runDir>',
    description: 'Score the world after every recorded call of each sample (per-step curves); writes curves.json, steps.arrow and metrics.arrow into the run',
    options: [
      { flags: '--benchmark <dir>', description: 'The package the run was made on (default: the one recorded in run.json)' },
      { flags: '--workers <n>', description: 'Worker threads for scoring' },
      { flags: '--kernel <name>', description: 'ICP implementation: cells (default), wasm or js; same result' },
      { flags: '--backend <name>', description: 'Scoring backend: auto (default, or AWB_SCORING_BACKEND: the GPU only when it is hardware and measured faster), cpu or gpu; same result' },
    ],
    load: () => import('./commands/curves.ts'),
  },
  {
    usage: 'report <runDir>',
    description: 'Write a static HTML report of a run (tables, curves, timeline, pages, 3D replay); with --baseline, a paired comparison',
    options: [
      { flags: '--baseline <dir>', description: 'A run (or eval output) to compare with on the same samples: wins/losses (exact McNemar), PA/SCD paired bootstrap' },
      { flags: '--out <dir>', description: 'Report folder (default <run>/report); open index.html from disk' },
      { flags: '--gates <json>', description: 'e.g. \'{"vs_baseline": {"SR": -0.05}}\': exit 1 when the run is significantly worse than the baseline by more than that' },
      { flags: '--benchmark <dir>', description: 'The package the run was made on (default: the one recorded in run.json)' },
      { flags: '--curves', description: 'Score every recorded step for the per-step curves when the run has no curves.json (minutes: one official score per state); off by default' },
      { flags: '--workers <n>', description: 'Worker threads for scoring the curves (with --curves; default: the CPU count, at most 8)' },
      // Declared positive: cac gives a `--no-x` flag a default of true and prints "(default: true)"; `--no-captures` still parses.
      { flags: '--captures', description: 'Render each final scene in headless Chromium (on by default; --no-captures shows the agent\'s last capture instead)' },
    ],
    load: () => import('./commands/report.ts'),
  },
  {
    usage: 'env <action>',
    description: 'Drive an episode without an agent: `awb env run --episode IN.zip --calls CALLS.jsonl --out OUT.zip [--render]`',
    options: [
      { flags: '--episode <file>', description: 'The episode archive to open (setup or active)' },
      { flags: '--calls <file>', description: 'JSONL of {"name", "arguments"} tool calls, run in order as the agent' },
      { flags: '--out <file>', description: 'Where to write the exported full episode (atomically)' },
      { flags: '--render', description: 'Render capture_scene in headless Chromium (otherwise it answers unsupported_capability)' },
      { flags: '--json', description: 'Print one JSON line per call result' },
    ],
    load: () => import('./commands/env.ts'),
  },
  {
    usage: 'fixtures',
    description: 'Generate the synthetic benchmark package deterministically: awb-mini (default) or the full-size awb-full (`--size full`)',
    options: [
      { flags: '--out <dir>', description: 'A new directory for the package (required for mini; full: default ~/.cache/assembly-world-bench/full-<seed>/awb-full)' },
      { flags: '--seed <n>', description: 'Generator seed (default 0: the committed fixtures/awb-mini, the committed full-size hash list)' },
      { flags: '--size <mini|full>', description: 'mini: 20 evaluations, 2–8 parts; full: 100 evaluations over 80 shapes with the real part counts (about 3 min on 2 idle cores, 90 MB at the default sizes)' },
      { flags: '--triangles <n>', description: 'full: triangle budget per part mesh, PartNet/IKEA/AssemblyBench; meshes are subdivided ×4 while they fit (default 4000; 0 keeps the recipes\' meshes)' },
      { flags: '--scan-triangles <n>', description: 'full: triangle budget per Fantastic Breaks fragment (default 16000)' },
      { flags: '--check', description: 'full: verify the package at --out (and its demonstrations) against fixtures/generator/full-size.sha256 instead of generating' },
    ],
    load: () => import('./commands/fixtures.ts'),
  },
  {
    usage: 'mcp',
    description: 'Serve one episode to an MCP client: `awb mcp --episode IN.zip [--http PORT] [--surface benchmark|direct] [--out FINAL.zip]`',
    options: [
      { flags: '--episode <file>', description: 'The episode archive to open (setup or active)' },
      { flags: '--http <port>', description: 'Serve Streamable HTTP on 127.0.0.1:<port> (0 = any free port) instead of stdio; prints {"url"} on stdout' },
      { flags: '--surface <kind>', description: 'benchmark (list_pages, list_webmcp_tools, execute_webmcp_tool, read_manual_page; default) or direct (the scene tools)' },
      { flags: '--out <file>', description: 'Where the final episode is written on exit (default <name>.final.episode.zip next to the input)' },
      { flags: '--page <file>', description: 'A reference page for read_manual_page (repeatable, in page order)' },
      { flags: '--node', description: 'Run the world in Node without a browser (capture_scene answers unsupported_capability)' },
      { flags: '--connect <url>', description: 'Bridge mode: forward stdio to a running Streamable HTTP endpoint (what agent CLIs spawn)' },
    ],
    load: () => import('./commands/mcp.ts'),
  },
  {
    usage: 'doctor',
    description: 'Check Node, Chromium, MuJoCo 3.12.0, a WebMCP round trip in headless Chromium, agent CLIs, API keys (never printed) and the scoring backend',
    options: [{ flags: '--json', description: 'Print one JSON report on stdout instead of lines' }],
    load: () => import('./commands/doctor.ts'),
  },
]
