// Manifest rules a JSON Schema cannot express (§2.3–§2.5, §2.16); the schema itself is checked elsewhere.
import { EpisodeError } from './errors.ts'
import { isSafeRelativePath } from './member-names.ts'
import type { Manifest } from './manifest-schema.ts'

const MEMBER = 'manifest.json'

/** Unique object ids, `quietDuration ≤ maxDuration`, `ended` iff `end`, and a safe MJB model path. */
export function validateManifestRules(manifest: Manifest, source: string): void {
  const seen = new Set<string>()
  manifest.objects.forEach((object, i) => {
    if (seen.has(object.id)) {
      throw new EpisodeError('EPISODE_MANIFEST', `object id "${object.id}" appears twice; object ids must be unique (they are MuJoCo body names).`, { source, member: `${MEMBER} objects[${i}].id` })
    }
    seen.add(object.id)
  })
  const { quietDuration, maxDuration } = manifest.runtime.physics
  if (quietDuration > maxDuration) {
    throw new EpisodeError('EPISODE_MANIFEST', `quietDuration ${quietDuration} s exceeds maxDuration ${maxDuration} s; the settle quiet window must fit in the settle timeout.`, { source, member: `${MEMBER} runtime.physics.quietDuration` })
  }
  const isEnded = manifest.lifecycle === 'ended'
  if (isEnded !== (manifest.end !== undefined)) {
    throw new EpisodeError(
      'EPISODE_LIFECYCLE',
      isEnded ? 'lifecycle is "ended" but manifest.end is missing; an ended episode must say why it ended.' : `manifest.end is present but lifecycle is "${manifest.lifecycle}"; end is allowed only when lifecycle is "ended".`,
      { source, member: `${MEMBER} ${isEnded ? 'end' : 'lifecycle'}` },
    )
  }
  if (manifest.model !== undefined && !isSafeRelativePath(manifest.model.path)) {
    throw new EpisodeError('EPISODE_ASSET_PATH_UNSAFE', `model.path "${manifest.model.path}" is not a safe relative path inside world/ (no absolute path, "..", backslash or colon).`, { source, member: `${MEMBER} model.path` })
  }
}

/** The member holding the model: `world/model.xml`, or `world/<model.path>` for MJB episodes. */
export function modelMemberName(manifest: Pick<Manifest, 'model'>): string {
  return manifest.model === undefined ? 'world/model.xml' : `world/${manifest.model.path}`
}
