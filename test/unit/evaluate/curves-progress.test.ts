// The curves' progress line (issue #28): samples and steps done, of how many, and the time left at the pace so far.
import { describe, expect, it } from 'vitest'
import { curvesProgress, formatCurvesProgress, formatDuration } from '../../../src/evaluate/curves/index.ts'

describe('curvesProgress / formatCurvesProgress', () => {
  it('paces the steps left by the seconds per step so far, using the recorded call counts of the samples not done', () => {
    // 2 done (10 + 20 steps in 30 s: 1 s per step); 3 left: 40 recorded calls, 50, and one not recorded (mean 15).
    const progress = curvesProgress([
      { done: true, steps: 10 }, { done: true, steps: 20 }, { done: false, steps: 40 }, { done: false, steps: 50 }, { done: false, steps: null },
    ], 30)
    expect(progress).toEqual({ samplesDone: 2, samples: 5, stepsDone: 30, steps: 135, elapsedSeconds: 30, secondsLeft: 105 })
    expect(formatCurvesProgress(progress)).toBe('curves: 2/5 samples, 30 of 135 steps, ~1 min 45 s left')
  })

  it('has no estimate before a sample is done, paces by samples while none has steps, and says when it is done', () => {
    expect(formatCurvesProgress(curvesProgress([{ done: false, steps: 4 }], 0))).toBe('curves: 0/1 samples, 0 of 4 steps')
    expect(curvesProgress([{ done: true, steps: 0 }, { done: false, steps: null }], 8).secondsLeft).toBe(8)
    expect(formatCurvesProgress(curvesProgress([{ done: true, steps: 7 }, { done: true, steps: 3 }], 70.4))).toBe('curves: 2/2 samples, 10 of 10 steps, done in 1 min 10 s')
  })

  it('writes durations in seconds, minutes and hours', () => {
    expect([formatDuration(0.4), formatDuration(59.6), formatDuration(70), formatDuration(3900)]).toEqual(['0 s', '1 min 0 s', '1 min 10 s', '1 h 5 min'])
  })
})
