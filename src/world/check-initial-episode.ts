// Checks that an archive is a usable task input: a valid setup episode whose world compiles and matches its
// manifest (benchmark-package.md §14, environment.md §2.16). Used by `awb validate`; changes nothing.
import { decodeEpisode, EpisodeError } from '../episode/index.ts'
import { compileEpisodeModel } from './check-episode-model.ts'
import { loadMujoco } from './mujoco-runtime.ts'

/** Throws `EpisodeError` or `WorldError` naming `source` when the archive cannot be an initial episode. */
export async function checkInitialEpisode(bytes: Uint8Array, source: string): Promise<void> {
  const episode = await decodeEpisode(bytes, { source })
  if (episode.manifest.lifecycle !== 'setup') {
    throw new EpisodeError('EPISODE_LIFECYCLE', `an initial episode must have lifecycle "setup", not "${episode.manifest.lifecycle}"; ship the setup archive, not a recorded run`, { source, member: 'manifest.json' })
  }
  const mujoco = await loadMujoco()
  compileEpisodeModel(mujoco, episode, source).delete()
}
