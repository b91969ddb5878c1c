// Node only: scores samples on a NearestDevice, coalescing the calls that arrive together (the states of a curve, the
// samples of a run scored concurrently) into one lockstep batch; no backend choice, no browser handling.
import type { SampleScore, ScoreOptions } from '../score-sample.ts'
import type { SampleInput } from '../prepare-sample.ts'
import type { NearestDevice } from './device.ts'
import { emptyLockstepStats, type LockstepStats } from './lockstep.ts'
import { scoreSamplesOnDevice } from './score-samples-on-device.ts'

/** Most samples in one lockstep batch (bounds the memory of a batch: per start, two hint arrays per point). */
export const MAX_BATCH_SAMPLES = 64

interface Pending {
  input: SampleInput
  resolve: (score: SampleScore) => void
  reject: (error: unknown) => void
}

/**
 * `score()` calls made before the current batch starts join it: every call waits for the next turn (setImmediate),
 * then all waiting calls run as one lockstep batch. Batches run one at a time. Results never depend on the batching.
 */
export class DeviceBatchScorer {
  /** Counters over every batch so far. */
  readonly stats: LockstepStats = emptyLockstepStats()
  private pending: Pending[] = []
  private running: Promise<void> = Promise.resolve()
  private isScheduled = false

  private readonly device: NearestDevice
  private readonly options: ScoreOptions

  constructor(device: NearestDevice, options: ScoreOptions = {}) {
    this.device = device
    this.options = options
  }

  score(input: SampleInput): Promise<SampleScore> {
    return new Promise<SampleScore>((resolve, reject) => {
      this.pending.push({ input, resolve, reject })
      if (!this.isScheduled) {
        this.isScheduled = true
        setImmediate(() => {
          this.isScheduled = false
          this.running = this.running.then(() => this.flush())
        })
      }
    })
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH_SAMPLES)
      try {
        const outcomes = await scoreSamplesOnDevice(this.device, batch.map(p => p.input), this.options, this.stats)
        outcomes.forEach((outcome, k) => {
          if ('score' in outcome) batch[k]!.resolve(outcome.score)
          else batch[k]!.reject(outcome.error)
        })
      } catch (error) {
        for (const p of batch) p.reject(error)
      }
    }
  }
}
