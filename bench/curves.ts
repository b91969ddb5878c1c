// Per-step curve cost on awb-mini: replays every demonstration in the Node runtime into a temporary run, then, sample by
// sample in one process, times (a) the baseline, every step's state scored on its own by the official scorer
// (`scorer.score`, the path of a final score), and (b) the curves path (`scoreSampleCurve`, what `awb curves` runs per
// sample), and checks that every step's figures are the same bits in both. Prints per-sample and per-step costs of
// both and their ratio (wall and process CPU, workers included), as a table and one JSON line; exits 1 on any mismatch.
// Usage: tsx bench/curves.ts [--workers N] [--run RUN_DIR] [--only BLOCK]
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { readStepScenes, scoreSampleCurve, type SampleCurve } from '../src/evaluate/curves/index.ts'
import { createScorer, describeError, scoringInput, type SampleScorer } from '../src/evaluate/index.ts'
import { findSample, loadEvaluation, openPackage, readEpisode, type BenchmarkPackage, type PackageSample } from '../src/package/index.ts'
import { selectAttempts } from '../src/runs/index.ts'
import type { SampleScore } from '../src/scoring/index.ts'
import { BENCH_PACKAGE as PACKAGE, replayDemonstrationsRun } from './replay-run.ts'

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}
const workersFlag = flag('--workers')
const workers = workersFlag === undefined ? undefined : Number(workersFlag)
if (workers !== undefined && (!Number.isInteger(workers) || workers < 0)) throw new Error(`--workers: expected a whole number ≥ 0, got ${workersFlag}`)
const only = flag('--only')

/** One step of the baseline: the official score of the step's state alone, or why it failed. */
type BaselineStep = { stateIndex: number; score: SampleScore } | { stateIndex: number; error: string }

/** Wall and process CPU seconds (every thread, scoring workers included) of `run`. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; seconds: number; cpuSeconds: number }> {
  const cpu0 = process.cpuUsage()
  const started = performance.now()
  const value = await run()
  const cpu = process.cpuUsage(cpu0)
  return { value, seconds: (performance.now() - started) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 }
}

/** Runs `first`, then `second` (never both at once), and resolves to both results. */
async function inSequence<A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<readonly [A, B]> {
  const a = await first()
  return [a, await second()]
}

/** The baseline: reads the scenes as the curves path does, then scores the state of every step on its own. */
async function baselineSteps(pkg: BenchmarkPackage, sample: PackageSample, finalBytes: Uint8Array, finalSource: string, scorer: SampleScorer): Promise<BaselineStep[]> {
  const evaluation = await loadEvaluation(pkg, sample)
  const scenes = await readStepScenes({ finalBytes, initialBytes: await readEpisode(pkg, sample), partIds: evaluation.partIds, finalSource, initialSource: sample.episodePath })
  const steps: BaselineStep[] = []
  for (const call of scenes.calls) {
    try {
      steps.push({ stateIndex: call.stateIndex, score: await scorer.score(scoringInput(evaluation, scenes.poses.get(call.stateIndex)!)) })
    } catch (error) {
      steps.push({ stateIndex: call.stateIndex, error: describeError(error) })
    }
  }
  return steps
}

/** Every difference between the curve's steps and the baseline's, as `step k: what` lines (empty when the same bits). */
function mismatches(curve: SampleCurve, baseline: readonly BaselineStep[]): string[] {
  const out: string[] = []
  if (curve.steps.length !== baseline.length) return [`${curve.steps.length} curve steps, ${baseline.length} baseline steps`]
  const same = (a: number | null, b: number | null) => Object.is(a, b)
  curve.steps.forEach((step, k) => {
    const base = baseline[k]!
    const where = `step ${k} (call ${step.call_index}, ${step.tool}, state ${step.state_index})`
    if (step.state_index !== base.stateIndex) out.push(`${where}: state ${base.stateIndex} in the baseline`)
    if ('error' in base) {
      if (step.status !== 'error' || step.error !== base.error) out.push(`${where}: ${step.status} ${step.error ?? ''}, baseline error ${base.error}`)
      return
    }
    const { score } = base
    const correct = curve.part_ids.map(id => score.parts.find(part => part.part_id === id)?.correct ?? false)
    if (step.status !== 'scored' || !same(step.SCD, score.SCD) || !same(step.PA, score.PA) || !same(step.SR, score.SR) || step.parts_correct !== correct.filter(Boolean).length) {
      out.push(`${where}: ${step.status} SCD ${step.SCD} PA ${step.PA} SR ${step.SR} (${step.parts_correct} correct), baseline SCD ${score.SCD} PA ${score.PA} SR ${score.SR}`)
    }
    const detail = curve.states.find(state => state.state_index === step.state_index)
    const targets = curve.part_ids.map(id => score.parts.find(part => part.part_id === id)?.target_part_id ?? id)
    const rotation = score.alignment.rotation.flat()
    if (detail === undefined) out.push(`${where}: no state detail`)
    else if (detail.correct.some((c, i) => c !== correct[i]) || detail.target_part_ids.some((t, i) => t !== targets[i])
      || detail.rotation === null || detail.rotation.flat().some((v, i) => !same(v, rotation[i]!))
      || detail.translation === null || detail.translation.some((v, i) => !same(v, score.alignment.translation[i]!))) {
      out.push(`${where}: parts or alignment differ (curve ${JSON.stringify(detail)}, baseline rotation ${JSON.stringify(score.alignment.rotation)} translation ${JSON.stringify(score.alignment.translation)})`)
    }
  })
  return out
}

interface SampleCost {
  curve: SampleCurve
  baseline: { seconds: number; cpuSeconds: number }
  curves: { seconds: number; cpuSeconds: number }
}

const temporary = flag('--run') === undefined ? await mkdtemp(join(tmpdir(), 'awb-bench-curves-')) : undefined
try {
  const runDir = flag('--run') ?? (await replayDemonstrationsRun(join(temporary!, 'run'), { only }))
  const pkg = await openPackage(PACKAGE)
  const options = workers === undefined ? {} : { workers }
  // One scorer per path, so neither reuses what the other's pool kept (the target's cells); both start their workers
  // before the first sample, so neither pays the start-up inside its timing.
  const baselineScorer = createScorer(options)
  const curvesScorer = createScorer(options)
  baselineScorer.start()
  curvesScorer.start()
  const costs: SampleCost[] = []
  const failed: string[] = []
  const problems: string[] = []
  try {
    const selected = await selectAttempts([runDir])
    for (const [i, one] of selected.entries()) {
      const name = `${one.block} ${one.sampleId}`
      if (one.kind === 'error' || one.attempt.result?.archive?.status !== 'saved') {
        failed.push(`${name}: ${one.kind === 'error' ? one.error : 'no saved export'}`)
        continue
      }
      const finalPath = join(one.attempt.dir, 'final.episode.zip')
      const finalBytes = new Uint8Array(await readFile(finalPath))
      const sample = findSample(pkg, one.block, one.sampleId)
      const runBaseline = () => timed(() => baselineSteps(pkg, sample, finalBytes, finalPath, baselineScorer))
      const runCurves = () => timed(() => scoreSampleCurve({ pkg, sample, finalBytes, finalSource: finalPath, scorer: curvesScorer }))
      try {
        // Alternate which path goes first, so a change in the machine's load falls on both alike.
        const [baseline, curves] = i % 2 === 0
          ? await inSequence(runBaseline, runCurves)
          : await inSequence(runCurves, runBaseline).then(([c, b]) => [b, c] as const)
        const differ = mismatches(curves.value, baseline.value)
        for (const line of differ) problems.push(`${name} ${line}`)
        costs.push({ curve: curves.value, baseline: { seconds: baseline.seconds, cpuSeconds: baseline.cpuSeconds }, curves: { seconds: curves.seconds, cpuSeconds: curves.cpuSeconds } })
        process.stderr.write(`[${i + 1}/${selected.length}] ${name}: ${curves.value.steps.length} steps, baseline ${baseline.seconds.toFixed(2)} s, curves ${curves.seconds.toFixed(2)} s${differ.length > 0 ? `, ${differ.length} MISMATCHES` : ', same bits'}\n`)
      } catch (error) {
        failed.push(`${name}: ${describeError(error)}`)
      }
    }
  } finally {
    await Promise.all([baselineScorer.close(), curvesScorer.close()])
  }

  const sum = (pick: (cost: SampleCost) => number) => costs.reduce((total, cost) => total + pick(cost), 0)
  const steps = sum(c => c.curve.steps.length)
  const statesScored = sum(c => c.curve.cost.states_scored)
  const perStep = (seconds: number) => (steps === 0 ? null : seconds / steps)
  const perState = costs.flatMap(c => Array.from({ length: c.curve.cost.states_scored }, () => c.curve.cost.scoring_seconds / Math.max(1, c.curve.cost.states_scored))).sort((a, b) => a - b)
  const at = (q: number) => perState[Math.min(perState.length - 1, Math.ceil(q * perState.length) - 1)] ?? 0
  const machine = { cpus: availableParallelism(), node: process.version, platform: `${process.platform}-${process.arch}` }
  const ratio = (a: number, b: number) => (b > 0 ? a / b : null)

  console.log(`machine: ${machine.cpus} CPUs, Node ${machine.node}, ${machine.platform}; scoring workers: ${curvesScorer.workers} per path, backend ${curvesScorer.backend}`)
  console.log('sample                                   steps  states  baseline s/step  curves s/step  ratio')
  for (const { curve, baseline, curves } of costs) {
    const n = Math.max(1, curve.steps.length)
    console.log(`${`${curve.block} ${curve.sample_id}`.padEnd(40)} ${String(curve.steps.length).padStart(5)} ${String(curve.cost.states_scored).padStart(7)} ${(baseline.seconds / n).toFixed(3).padStart(16)} ${(curves.seconds / n).toFixed(3).padStart(14)} ${(ratio(baseline.seconds, curves.seconds) ?? 0).toFixed(2).padStart(6)}`)
  }
  const baselineSeconds = sum(c => c.baseline.seconds)
  const curvesSeconds = sum(c => c.curves.seconds)
  const result = {
    samples: costs.length,
    failed: failed.length,
    steps,
    states_scored: statesScored,
    run_seconds: curvesSeconds,
    run_cpu_seconds: sum(c => c.curves.cpuSeconds),
    seconds_per_step: perStep(curvesSeconds),
    scoring_seconds_per_state_median: at(0.5),
    scoring_seconds_per_state_p95: at(0.95),
    baseline_seconds: baselineSeconds,
    baseline_cpu_seconds: sum(c => c.baseline.cpuSeconds),
    baseline_seconds_per_step: perStep(baselineSeconds),
    speedup_wall: ratio(baselineSeconds, curvesSeconds),
    speedup_cpu: ratio(sum(c => c.baseline.cpuSeconds), sum(c => c.curves.cpuSeconds)),
    steps_compared: steps,
    mismatches: problems.length,
  }
  console.log(`baseline (each step's state scored on its own): ${baselineSeconds.toFixed(1)} s wall, ${result.baseline_cpu_seconds.toFixed(1)} s CPU, per step ${result.baseline_seconds_per_step?.toFixed(3)} s`)
  console.log(`curves path (scoreSampleCurve):                 ${curvesSeconds.toFixed(1)} s wall, ${result.run_cpu_seconds.toFixed(1)} s CPU, per step ${result.seconds_per_step?.toFixed(3)} s (${statesScored} distinct states of ${steps} steps; per state median ${result.scoring_seconds_per_state_median.toFixed(2)} s, p95 ${result.scoring_seconds_per_state_p95.toFixed(2)} s)`)
  console.log(`ratio baseline / curves: ${result.speedup_wall?.toFixed(2)}× wall, ${result.speedup_cpu?.toFixed(2)}× CPU; ${steps} steps compared, ${problems.length} mismatches`)
  console.log(JSON.stringify({ bench: 'curves', machine, workers: curvesScorer.workers, ...result }))
  for (const line of failed) process.stderr.write(`failed: ${line}\n`)
  if (problems.length > 0) {
    for (const line of problems) process.stderr.write(`MISMATCH ${line}\n`)
    throw new Error(`${problems.length} curve steps differ from scoring their state alone; see the MISMATCH lines above`)
  }
  if (failed.length > 0) process.exitCode = 1
} finally {
  if (temporary !== undefined) await rm(temporary, { recursive: true, force: true })
}
