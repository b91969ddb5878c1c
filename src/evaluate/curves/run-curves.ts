// Score curves of every sample of a run (its selected attempts, scoring.md §9.1) with one shared scorer; no output.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod'
import { findSample, openPackage, type BenchmarkPackage } from '../../package/index.ts'
import { readRun, selectAttempts } from '../../runs/index.ts'
import { EvaluateError } from '../errors.ts'
import { describeError } from '../rows/index.ts'
import type { SampleScorer } from '../scorer/create-scorer.ts'
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
  onSample?: (curve: SampleCurve | FailedCurve, done: number, total: number) => void
}

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
  const samples: (SampleCurve | FailedCurve)[] = []
  for (const one of selected) {
    let curve: SampleCurve | FailedCurve
    try {
      if (one.kind === 'error') throw new EvaluateError('EVALUATE_ATTEMPT_UNUSABLE', one.error)
      if (one.attempt.result?.archive?.status !== 'saved') throw new EvaluateError('EVALUATE_ATTEMPT_UNUSABLE', 'the attempt has no saved export, so it has no recorded calls to replay', { file: one.attempt.dir })
      curve = await curveOf(pkg, one.block, one.sampleId, join(one.attempt.dir, FINAL_EPISODE), options.scorer)
    } catch (error) {
      curve = { block: one.block, sample_id: one.sampleId, error: describeError(error) }
    }
    samples.push(curve)
    options.onSample?.(curve, samples.length, selected.length)
  }
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
