// The scoring backend the evaluation glue calls: in-thread now, worker threads when a pool is given.
import { scoreSample, type SampleInput, type SampleScore } from '../scoring/index.ts'

/** Scores one sample; implementations must return the same result whatever their parallelism. */
export interface SampleScorer {
  /** Short name reported as `backend` (e.g. `cpu-kdtree`). */
  readonly backend: string
  score(input: SampleInput): Promise<SampleScore>
  close(): Promise<void>
}

/** Every evaluation.json carries exactly this many points per part. */
const POINTS_PER_PART = 1000

export function inThreadScorer(): SampleScorer {
  return {
    backend: 'cpu-kdtree',
    score: async input => scoreSample(input, { pointsPerPart: POINTS_PER_PART }),
    close: async () => {},
  }
}
