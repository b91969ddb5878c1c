// Reads the scene after every recorded call of a final episode (one MuJoCo pose read per distinct state, the
// same checks and pose route as the final score, scoring.md §3); scores nothing.
import { decodeEpisode, latestFrame, sha256Hex, type Episode, type Frame } from '../../episode/index.ts'
import { compileEpisodeModel, loadMujoco, readBodyPoses, type BodyPose } from '../../world/index.ts'
import { EvaluateError } from '../errors.ts'
import { checkFinalAgainstInitial, expectedObjects } from '../final-vs-initial.ts'

/** One call recorded after the initial episode's own history (environment.md §2.8). */
export interface StepCall {
  /** `calls.jsonl` row index in the final episode. */
  index: number
  name: string
  /** ISO timestamp of the call. */
  timestamp: string
  status: 'completed' | 'error'
  /** The committed state the world was in when the call ended (0 = the initial frame). */
  stateIndex: number
}

export interface StepScenes {
  calls: StepCall[]
  /** Part poses (evaluation `part_ids` order) per distinct state index the calls end in, plus the final state. */
  poses: Map<number, BodyPose[]>
  /** Index of the state the official score reads (the highest committed index). */
  finalStateIndex: number
  episodeSha256: string
  /** The decoded final episode (the report reads its world and frames again). */
  episode: Episode
}

export interface ReadStepScenesInput {
  finalBytes: Uint8Array
  initialBytes: Uint8Array
  partIds: readonly string[]
  finalSource: string
  initialSource: string
}

/**
 * Decodes both episodes, applies the final-vs-initial checks of the official score and reads each distinct
 * state's part poses once (read-only calls end in the state before them, so they share its poses).
 * Throws `EpisodeError`, `EvaluateError` or `WorldError` when the final episode cannot be scored.
 */
export async function readStepScenes(input: ReadStepScenesInput): Promise<StepScenes> {
  const [final, initial] = await Promise.all([
    decodeEpisode(input.finalBytes, { source: input.finalSource }),
    decodeEpisode(input.initialBytes, { source: input.initialSource }),
  ])
  checkFinalAgainstInitial(final, initial, input.partIds, input.finalSource)
  const calls = final.calls.slice(initial.calls.length).map(call => ({
    index: call.index, name: call.name, timestamp: call.timestamp, status: call.status, stateIndex: call.state_index,
  }))
  const finalFrame = latestFrame(final)
  const frames = framesByIndex(final)
  const wanted = [...new Set([...calls.map(call => call.stateIndex), finalFrame.index])]
  const mujoco = await loadMujoco()
  const model = compileEpisodeModel(mujoco, final, input.finalSource)
  const poses = new Map<number, BodyPose[]>()
  try {
    const bodies = expectedObjects(input.partIds).map(object => object.id)
    for (const index of wanted) {
      const frame = frames.get(index)
      if (frame === undefined) throw new EvaluateError('EVALUATE_FINAL_MISMATCH', `a call ends in state ${index}, which the episode does not hold; re-export the episode`, { file: input.finalSource })
      poses.set(index, readBodyPoses(mujoco, model, frame.integration, bodies, { stateSpec: final.manifest.stateSpec, source: input.finalSource }))
    }
  } finally {
    model.delete()
  }
  return { calls, poses, finalStateIndex: finalFrame.index, episodeSha256: await sha256Hex(input.finalBytes), episode: final }
}

/** Committed frames by state index: 0 is the initial frame, k ≥ 1 is `states[k − 1]` (environment.md §2.6). */
export function framesByIndex(episode: Pick<Episode, 'initial' | 'states'>): Map<number, Frame> {
  const frames = new Map<number, Frame>([[episode.initial.index, episode.initial]])
  for (const state of episode.states) frames.set(state.index, state)
  return frames
}
