// Score curves of every sample of a run (its selected attempts, scoring.md §9.1) with one shared scorer; no output.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import pLimit from 'p-limit'
import * as z from 'zod'
import { findSample, openPackage, type BenchmarkPackage } from '../../package/index.ts'
import { readRun, selectAttempts } from '../../runs/index.ts'
import { EvaluateError } from '../errors.ts'
import { describeError } from '../rows/index.ts'
import type { SampleScorer } from '../scorer/create-scorer.ts'
import { curvesProgress, type CurvesProgress, type SampleSteps } from './curves-progress.ts'
import { scoreSampleCurve, type SampleCurve } from './sample-curve.ts'

const FINAL_EPISODE = 'final.episode.zip'

/** A sample whose curve could not be computed (no saved export, unscorable final episode). */
export interface FailedCurve {
  block: string
  sample_id: string
  error: string
}

export interface RunCurves {
  run: string
  samples: (SampleCurve | FailedCurve)[]
  /** Cost of the whole computation: seconds, steps and distinct states scored, and the scoring backend actually used. */
  cost: { seconds: number; steps: number; states_scored: number; scoring_seconds: number; workers: number; backend: string }
}

export interface ComputeRunCurvesOptions {
  runDir: string
  /** The package the run was made on; default: the run's recorded `benchmark.local`. */
  packageDir?: string | undefined
  scorer: SampleScorer
  /** After each sample, in the order they finish: its curve (or failure), how many are done, of how many. */
  onSample?: (curve: SampleCurve | FailedCurve, done: number, total: number) => void
  /** After each sample: samples and steps done, of how many, and the time left at the pace so far. */
  onProgress?: (progress: CurvesProgress) => void
}

/**
 * Samples in flight on a scorer that takes one at a time (the CPU pool): while one sample's states are scored on the
 * workers, the next one's episodes are decoded and its states read in MuJoCo on this thread, and its first state
 * waits in the pool's queue, so no worker waits for this thread between samples. More would only hold more episodes.
 */
export const CPU_CURVE_SAMPLES_IN_FLIGHT = 2

const RecordedBenchmarkSchema = z.looseObject({ benchmark: z.looseObject({ local: z.string() }) })

/** The package directory a run recorded in run.json; throws `EvaluateError` when it has none. */
export async function recordedPackageDir(runDir: string): Promise<string> {
  const run = await readRun(runDir)
  const parsed = RecordedBenchmarkSchema.safeParse(run.json)
  if (!parsed.success) throw new EvaluateError('EVALUATE_RUN_MISMATCH', 'run.json records no benchmark.local; pass --benchmark <package-dir>', { file: join(run.dir, 'run.json') })
  return parsed.data.benchmark.local
}

export function isFailedCurve(curve: SampleCurve | FailedCurve): curve is FailedCurve {
  return 'error' in curve
}

/** Curves of every selected attempt; a sample without a scorable export becomes a `FailedCurve`. */
export async function computeRunCurves(options: ComputeRunCurvesOptions): Promise<RunCurves> {
  const started = performance.now()
  const packageDir = options.packageDir ?? (await recordedPackageDir(options.runDir))
  const pkg = await openPackage(packageDir)
  const selected = await selectAttempts([options.runDir])
  // The estimate's step counts: the recorded call count until a sample is done (an attempt without a saved export
  // has no steps to score), its curve's steps after.
  const progress: SampleSteps[] = selected.map(one => ({ done: false, steps: one.kind === 'error' || one.attempt.result?.archive?.status !== 'saved' ? 0 : one.attempt.result.archive.calls ?? null }))
  // A batching backend takes several samples at once; the CPU pool one, with the next one being read meanwhile.
  const limit = pLimit(Math.max(CPU_CURVE_SAMPLES_IN_FLIGHT, options.scorer.samplesAtOnce))
  let done = 0
  // Curves keep the selection's order, whatever order they finish in (curveOf's failures become FailedCurves).
  const samples = await Promise.all(selected.map((one, i) => limit(async (): Promise<SampleCurve | FailedCurve> => {
    let curve: SampleCurve | FailedCurve
    try {
      if (one.kind === 'error') throw new EvaluateError('EVALUATE_ATTEMPT_UNUSABLE', one.error)
      if (one.attempt.result?.archive?.status !== 'saved') throw new EvaluateError('EVALUATE_ATTEMPT_UNUSABLE', 'the attempt has no saved export, so it has no recorded calls to replay', { file: one.attempt.dir })
      curve = await curveOf(pkg, one.block, one.sampleId, join(one.attempt.dir, FINAL_EPISODE), options.scorer)
    } catch (error) {
      curve = { block: one.block, sample_id: one.sampleId, error: describeError(error) }
    }
    // The first score chose the backend: from then on, as many samples as it takes at once.
    limit.concurrency = Math.max(CPU_CURVE_SAMPLES_IN_FLIGHT, options.scorer.samplesAtOnce)
    progress[i] = { done: true, steps: isFailedCurve(curve) ? 0 : curve.steps.length }
    options.onSample?.(curve, ++done, selected.length)
    options.onProgress?.(curvesProgress(progress, (performance.now() - started) / 1000))
    return curve
  })))
  const scored = samples.filter((s): s is SampleCurve => !isFailedCurve(s))
  return {
    run: (await readRun(options.runDir)).dir,
    samples,
    cost: {
      seconds: (performance.now() - started) / 1000,
      steps: scored.reduce((sum, s) => sum + s.steps.length, 0),
      states_scored: scored.reduce((sum, s) => sum + s.cost.states_scored, 0),
      scoring_seconds: scored.reduce((sum, s) => sum + s.cost.scoring_seconds, 0),
      workers: options.scorer.workers,
      backend: options.scorer.backend,
    },
  }
}

async function curveOf(pkg: BenchmarkPackage, block: string, sampleId: string, finalPath: string, scorer: SampleScorer): Promise<SampleCurve> {
  const sample = findSample(pkg, block, sampleId)
  const finalBytes = new Uint8Array(await readFile(finalPath))
  return scoreSampleCurve({ pkg, sample, finalBytes, finalSource: finalPath, scorer })
}
