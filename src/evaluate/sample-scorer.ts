// The scoring backend the evaluation glue calls: the CPU KD-tree scorer, on worker threads or in this thread.
import type { IcpKernel, SampleInput, SampleScore } from '../scoring/index.ts'
import { ScoringPool } from '../scoring/workers/index.ts'

/** Scores one sample; implementations return the same result whatever their parallelism. */
export interface SampleScorer {
  /** Reported as `backend` in rows and CLI output. */
  readonly backend: string
  /** Worker threads in use (0 = the calling thread). */
  readonly workers: number
  /** ICP objective implementation (results do not depend on it). */
  readonly kernel: IcpKernel
  /** Starts the backend's threads ahead of the first sample (see ScoringPool.start). */
  start(): void
  score(input: SampleInput): Promise<SampleScore>
  close(): Promise<void>
}

/** Every evaluation.json carries exactly this many points per part. */
const POINTS_PER_PART = 1000
const BACKEND = 'cpu-kdtree'

export interface CreateScorerOptions {
  /** Worker threads; 0 scores in this thread; default: the CPU count, at most 8. */
  workers?: number
  /** ICP objective implementation; default `cells` (fastest). */
  kernel?: IcpKernel
}

export function createScorer(options: CreateScorerOptions = {}): SampleScorer {
  const pool = new ScoringPool(options)
  return {
    backend: BACKEND,
    workers: pool.workers,
    kernel: pool.kernel,
    start: () => pool.start(),
    score: input => pool.scoreSample(input, { pointsPerPart: POINTS_PER_PART }),
    close: () => pool.close(),
  }
}
