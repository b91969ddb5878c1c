// Per-step curve cost on awb-mini: replays every demonstration in the Node runtime into a temporary run, then
// scores the state after each recorded call (`awb curves`' code path). Prints per-sample figures, cost per step
// and per run (wall and process CPU), as a table and one JSON line.
// Usage: tsx bench/curves.ts [--workers N] [--run RUN_DIR] [--only BLOCK]
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { computeRunCurves, isFailedCurve, type SampleCurve } from '../src/evaluate/curves/index.ts'
import { createScorer } from '../src/evaluate/index.ts'
import { BENCH_PACKAGE as PACKAGE, replayDemonstrationsRun } from './replay-run.ts'

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}
const workersFlag = flag('--workers')
const workers = workersFlag === undefined ? undefined : Number(workersFlag)
if (workers !== undefined && (!Number.isInteger(workers) || workers < 0)) throw new Error(`--workers: expected a whole number ≥ 0, got ${workersFlag}`)
const only = flag('--only')

const temporary = flag('--run') === undefined ? await mkdtemp(join(tmpdir(), 'awb-bench-curves-')) : undefined
try {
  const runDir = flag('--run') ?? (await replayDemonstrationsRun(join(temporary!, 'run'), { only }))
  const scorer = createScorer(workers === undefined ? {} : { workers })
  const cpu0 = process.cpuUsage()
  const curves = await computeRunCurves({
    runDir, packageDir: PACKAGE, scorer,
    onSample: (c, done, total) => process.stderr.write(`[${done}/${total}] ${c.block} ${c.sample_id}${isFailedCurve(c) ? `: ${c.error}` : `: ${c.steps.length} steps, ${c.cost.total_seconds.toFixed(2)} s`}\n`),
  }).finally(() => scorer.close())
  const cpu = process.cpuUsage(cpu0)
  const samples = curves.samples.filter((c): c is SampleCurve => !isFailedCurve(c))
  const perStep = samples.flatMap(s => Array.from({ length: s.cost.states_scored }, () => s.cost.scoring_seconds / Math.max(1, s.cost.states_scored))).sort((a, b) => a - b)
  const at = (q: number) => perStep[Math.min(perStep.length - 1, Math.ceil(q * perStep.length) - 1)] ?? 0
  const machine = { cpus: availableParallelism(), node: process.version, platform: `${process.platform}-${process.arch}` }
  const { cost } = curves
  console.log(`machine: ${machine.cpus} CPUs, Node ${machine.node}, ${machine.platform}; scoring workers: ${cost.workers}`)
  console.log('sample                                   steps  states  seconds  s/step')
  for (const s of samples) console.log(`${`${s.block} ${s.sample_id}`.padEnd(40)} ${String(s.steps.length).padStart(5)} ${String(s.cost.states_scored).padStart(7)} ${s.cost.total_seconds.toFixed(2).padStart(8)} ${(s.cost.total_seconds / Math.max(1, s.steps.length)).toFixed(2).padStart(7)}`)
  const result = {
    samples: samples.length,
    failed: curves.samples.length - samples.length,
    steps: cost.steps,
    states_scored: cost.states_scored,
    run_seconds: cost.seconds,
    run_cpu_seconds: (cpu.user + cpu.system) / 1e6,
    seconds_per_step: cost.steps === 0 ? null : cost.seconds / cost.steps,
    scoring_seconds_per_state_median: at(0.5),
    scoring_seconds_per_state_p95: at(0.95),
  }
  console.log(`per run: ${result.run_seconds.toFixed(1)} s wall, ${result.run_cpu_seconds.toFixed(1)} s CPU for ${cost.steps} steps (${cost.states_scored} distinct states); per step ${result.seconds_per_step?.toFixed(2)} s; per state median ${result.scoring_seconds_per_state_median.toFixed(2)} s, p95 ${result.scoring_seconds_per_state_p95.toFixed(2)} s`)
  console.log(JSON.stringify({ bench: 'curves', machine, workers: cost.workers, ...result }))
} finally {
  if (temporary !== undefined) await rm(temporary, { recursive: true, force: true })
}
