// How far the curves of a run are, with an estimate of the time left, and its one-line text; pure (the caller
// passes the clock's readings), no output.

/** Progress after one more sample's curve (or failure). */
export interface CurvesProgress {
  samplesDone: number
  samples: number
  /** Steps (recorded calls) of the samples done. */
  stepsDone: number
  /**
   * Steps of the whole run: exact for the samples done, the attempt's recorded call count (result.json
   * `archive.calls`) for the others, or the mean of the samples done where it is not recorded.
   */
  steps: number
  elapsedSeconds: number
  /** Seconds left at the pace so far (per step, else per sample); null until a sample with steps is done. */
  secondsLeft: number | null
}

/** What is known of one sample when the estimate is made: its steps once done, its recorded call count before. */
export interface SampleSteps {
  done: boolean
  /** Steps when done; the recorded call count (or null, not recorded) before. */
  steps: number | null
}

/**
 * The progress of `samples` after `elapsedSeconds`. The pace is seconds per step over the samples done (scoring
 * time grows with the states a sample's calls end in); a run whose samples have no steps yet is paced per sample.
 */
export function curvesProgress(samples: readonly SampleSteps[], elapsedSeconds: number): CurvesProgress {
  const done = samples.filter(sample => sample.done)
  const stepsDone = done.reduce((sum, sample) => sum + (sample.steps ?? 0), 0)
  const meanSteps = done.length === 0 ? 0 : stepsDone / done.length
  const stepsLeft = samples.filter(sample => !sample.done).reduce((sum, sample) => sum + (sample.steps ?? meanSteps), 0)
  const samplesLeft = samples.length - done.length
  const secondsLeft = samplesLeft === 0 ? 0
    : stepsDone > 0 ? (elapsedSeconds / stepsDone) * stepsLeft
      : done.length > 0 ? (elapsedSeconds / done.length) * samplesLeft : null
  return { samplesDone: done.length, samples: samples.length, stepsDone, steps: Math.round(stepsDone + stepsLeft), elapsedSeconds, secondsLeft }
}

/** `curves: 7/20 samples, 42 of 118 steps, ~1 min 10 s left` (the estimate is left out until there is one). */
export function formatCurvesProgress(progress: CurvesProgress): string {
  const left = progress.secondsLeft === null ? '' : progress.samplesDone === progress.samples ? `, done in ${formatDuration(progress.elapsedSeconds)}` : `, ~${formatDuration(progress.secondsLeft)} left`
  return `curves: ${progress.samplesDone}/${progress.samples} samples, ${progress.stepsDone} of ${progress.steps} steps${left}`
}

/** `45 s`, `1 min 10 s`, `1 h 5 min`: whole seconds under an hour, whole minutes from there. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds))
  if (total < 60) return `${total} s`
  const minutes = Math.floor(total / 60)
  if (minutes < 60) return `${minutes} min ${total % 60} s`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}
