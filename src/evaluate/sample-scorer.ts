// The scoring backend the evaluation glue calls: the CPU scorer, on worker threads or in this thread, one sample at a
// time; says which ICP kernel ran and how long a sample waited for the shared pool apart from its computation.
import type { IcpKernel, SampleInput, SampleScore } from '../scoring/index.ts'
import { ScoringPool } from '../scoring/workers/index.ts'

/** Time one `score` call took, in ms: waiting for the samples queued before it, then computing on the pool. */
export interface ScoringTiming {
  queueMs: number
  computeMs: number
}

/** Scores one sample; implementations return the same result whatever their parallelism. */
export interface SampleScorer {
  /** Reported as `backend` in rows, result.json and CLI output: names the ICP kernel that runs (`cpu-cells`, …). */
  readonly backend: string
  /** Worker threads in use (0 = the calling thread). */
  readonly workers: number
  /** ICP objective implementation (results do not depend on it). */
  readonly kernel: IcpKernel
  /** Starts the backend's threads ahead of the first sample (see ScoringPool.start). */
  start(): void
  /**
   * Scores `input` after every sample queued before it (the pool runs one sample at a time). With `timing`, writes
   * the call's queue and compute times into it, also when scoring fails.
   */
  score(input: SampleInput, options?: { timing?: ScoringTiming }): Promise<SampleScore>
  close(): Promise<void>
}

/** Every evaluation.json carries exactly this many points per part. */
const POINTS_PER_PART = 1000

/** The backend label of each kernel: what finds nearest points (Voronoi cells, or KD-tree searches) and where. */
export const SCORING_BACKENDS = {
  cells: 'cpu-cells',
  wasm: 'cpu-kdtree-wasm',
  js: 'cpu-kdtree-js',
} as const satisfies Record<IcpKernel, string>

export interface CreateScorerOptions {
  /** Worker threads; 0 scores in this thread; default: the CPU count, at most 8. */
  workers?: number
  /** ICP objective implementation; default `cells` (fastest). */
  kernel?: IcpKernel
}

export function createScorer(options: CreateScorerOptions = {}): SampleScorer {
  const pool = new ScoringPool(options)
  // Samples take turns here, so the time one waits for those before it is measured apart from its own.
  let turn: Promise<unknown> = Promise.resolve()
  return {
    backend: SCORING_BACKENDS[pool.kernel],
    workers: pool.workers,
    kernel: pool.kernel,
    start: () => pool.start(),
    score: (input, scoreOptions = {}) => {
      const queued = performance.now()
      const run = turn.then(async () => {
        const started = performance.now()
        try {
          return await pool.scoreSample(input, { pointsPerPart: POINTS_PER_PART })
        } finally {
          if (scoreOptions.timing !== undefined) {
            scoreOptions.timing.queueMs = started - queued
            scoreOptions.timing.computeMs = performance.now() - started
          }
        }
      })
      turn = run.catch(() => undefined)
      return run
    },
    close: () => pool.close(),
  }
}
