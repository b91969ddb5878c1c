// Reads the scored scene of a final episode: checks it against the initial one, restores the latest state
// in MuJoCo and returns each part's world pose (scoring.md §3). No scoring here.
import { decodeEpisode, latestFrame, sha256Hex } from '../episode/index.ts'
import { compileEpisodeModel, loadMujoco, readBodyPoses, type BodyPose } from '../world/index.ts'
import { checkFinalAgainstInitial, expectedObjects } from './final-vs-initial.ts'

export interface FinalScene {
  /** One pose per part, in the order of the evaluation's `part_ids`. */
  poses: BodyPose[]
  /** Index of the scored state (0 = the initial frame: nothing was committed). */
  stateIndex: number
  /** SHA-256 of the final archive bytes. */
  episodeSha256: string
}

export interface ReadFinalSceneInput {
  finalBytes: Uint8Array
  initialBytes: Uint8Array
  /** The evaluation's part ids (code-point order), mapped to bodies `part-0001`, `part-0002`, … */
  partIds: readonly string[]
  finalSource: string
  initialSource: string
}

/** Throws `EpisodeError`, `EvaluateError` or `WorldError` when the final episode cannot be scored. */
export async function readFinalScene(input: ReadFinalSceneInput): Promise<FinalScene> {
  const [final, initial] = await Promise.all([
    decodeEpisode(input.finalBytes, { source: input.finalSource }),
    decodeEpisode(input.initialBytes, { source: input.initialSource }),
  ])
  checkFinalAgainstInitial(final, initial, input.partIds, input.finalSource)
  const frame = latestFrame(final)
  const mujoco = await loadMujoco()
  const model = compileEpisodeModel(mujoco, final, input.finalSource)
  try {
    const bodies = expectedObjects(input.partIds).map(object => object.id)
    const poses = readBodyPoses(mujoco, model, frame.integration, bodies, { stateSpec: final.manifest.stateSpec, source: input.finalSource })
    return { poses, stateIndex: frame.index, episodeSha256: await sha256Hex(input.finalBytes) }
  } finally {
    model.delete()
  }
}
