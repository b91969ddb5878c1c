// Scores whole samples with the alignment starts run in lockstep on a NearestDevice (lockstep.ts), then the same
// winner, matching and metrics as the CPU backend (score-sample.ts); no browser handling, no backend choice.
import type { StartResult } from '../icp.ts'
import { finishSample, planSample, type SampleScore, type ScoreOptions } from '../score-sample.ts'
import type { SampleInput } from '../prepare-sample.ts'
import type { NearestDevice } from './device.ts'
import { emptyLockstepStats, runStartsLockstep, type LockstepStats } from './lockstep.ts'

/** One sample's outcome: its score, or the error that made it unscorable (the caller turns it into an error row). */
export type DeviceSampleOutcome = { score: SampleScore } | { error: unknown }

/**
 * Scores `inputs` with every start of every valid sample in ONE lockstep run (so the device gets all of them per round
 * trip: all starts of a sample, all steps of a curve). An invalid sample gets its error and does not stop the others;
 * a device failure rejects the whole call. Results equal `scoreSample(input, options)` bit for bit.
 */
export async function scoreSamplesOnDevice(
  device: NearestDevice, inputs: readonly SampleInput[], options: ScoreOptions = {}, stats: LockstepStats = emptyLockstepStats(),
): Promise<DeviceSampleOutcome[]> {
  const outcomes: DeviceSampleOutcome[] = new Array(inputs.length)
  const plans: { at: number; plan: ReturnType<typeof planSample> }[] = []
  inputs.forEach((input, at) => {
    try {
      plans.push({ at, plan: planSample(input, options) })
    } catch (error) {
      outcomes[at] = { error }
    }
  })
  const results: StartResult[][] = await runStartsLockstep(device, plans.map(({ plan }) => ({
    prediction: plan.prepared.prediction, target: plan.prepared.target, starts: plan.starts,
  })), stats)
  plans.forEach(({ at, plan }, k) => {
    try {
      outcomes[at] = { score: finishSample(plan, results[k]!, options) }
    } catch (error) {
      outcomes[at] = { error }
    }
  })
  return outcomes
}
