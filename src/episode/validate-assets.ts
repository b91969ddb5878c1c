// Observation (§2.10) and world-asset (§2.12) checks on the side maps; the model itself is not compiled here.
import { EpisodeError } from './errors.ts'
import { isSafeRelativePath, OBSERVATIONS_PREFIX, WORLD_PREFIX } from './member-names.ts'
import { OBSERVATION_NAME_PATTERN } from './result-schemas.ts'
import { sha256Hex } from './sha256.ts'
import { modelMemberName } from './validate-manifest.ts'
import type { Manifest } from './manifest-schema.ts'

/** The 8-byte PNG signature. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const
/** Signature plus the IHDR chunk header: the least a PNG can be. */
const MIN_PNG_BYTES = 24
/** XML attributes that name files or directories MuJoCo will open (§2.12 rule 1). */
const PATH_ATTRIBUTE = /\b(file|meshdir|texturedir|assetdir)\s*=\s*(?:"([^"]*)"|'([^']*)')/g

const _latin1 = new TextDecoder('latin1')

/** Each observation is `<sha256>.png`, ≥ 24 bytes, PNG-signed, and hashes to its name. */
export async function validateObservations(observations: ReadonlyMap<string, Uint8Array>, source: string): Promise<void> {
  for (const [name, bytes] of observations) {
    const where = { source, member: `${OBSERVATIONS_PREFIX}${name}` }
    if (!OBSERVATION_NAME_PATTERN.test(name)) {
      throw new EpisodeError('EPISODE_OBSERVATION_INVALID', 'the observation name must be the lowercase hex SHA-256 of the PNG followed by ".png".', where)
    }
    if (bytes.byteLength < MIN_PNG_BYTES || !PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
      throw new EpisodeError('EPISODE_OBSERVATION_INVALID', `is not a PNG (needs ≥ ${MIN_PNG_BYTES} bytes starting with the PNG signature); observations must be captured PNG images.`, where)
    }
    const digest = await sha256Hex(bytes)
    if (`${digest}.png` !== name) {
      throw new EpisodeError('EPISODE_OBSERVATION_INVALID', `the SHA-256 of the bytes is ${digest}, which does not match the name; observations are content-addressed, so the file was altered or misnamed.`, where)
    }
  }
}

/** World keys are safe `world/…` paths, the model file exists, and XML assets reference safe paths only. */
export function validateWorld(world: ReadonlyMap<string, Uint8Array>, manifest: Manifest, source: string): void {
  for (const name of world.keys()) {
    if (!name.startsWith(WORLD_PREFIX) || !isSafeRelativePath(name)) {
      throw new EpisodeError('EPISODE_ASSET_PATH_UNSAFE', 'world assets must be keyed by a safe member path starting with "world/".', { source, member: name })
    }
  }
  const model = modelMemberName(manifest)
  if (!world.has(model)) {
    throw new EpisodeError('EPISODE_MODEL_MISSING', `the model file is missing${manifest.model === undefined ? '' : ` (declared by manifest.model.path "${manifest.model.path}")`}; the episode cannot be compiled without it. Re-export with the world files.`, { source, member: model })
  }
  for (const [name, bytes] of world) {
    if (name.toLowerCase().endsWith('.xml')) validateXmlAssetPaths(bytes, source, name)
  }
}

function validateXmlAssetPaths(bytes: Uint8Array, source: string, member: string): void {
  // Latin-1 keeps every byte, so no attribute can hide behind an invalid UTF-8 sequence.
  const text = _latin1.decode(bytes)
  for (const match of text.matchAll(PATH_ATTRIBUTE)) {
    const attribute = match[1] ?? ''
    const raw = match[2] ?? match[3] ?? ''
    if (raw.includes('&')) {
      throw new EpisodeError('EPISODE_ASSET_PATH_UNSAFE', `${attribute}="${raw}": encoded resource paths are unsupported; write the path literally.`, { source, member })
    }
    const value = attribute === 'file' ? raw : raw.replace(/\/+$/, '')
    if (!isSafeRelativePath(value)) {
      throw new EpisodeError('EPISODE_ASSET_PATH_UNSAFE', `${attribute}="${raw}" is not a safe relative path (no leading "/", "\\", ":", empty, "." or ".." segment); assets must stay inside world/.`, { source, member })
    }
  }
}
