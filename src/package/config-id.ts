// The config_id derivation rule of §6 (canonical identity JSON → SHA-256 prefix); no file access.
import { sha256Bytes } from './hashing.ts'
import { canonicalJson, isPlainObject } from './json-values.ts'

/** Hex characters of the identity hash that end a config id. */
const CONFIG_ID_HASH_CHARS = 12

/**
 * `prep-v1-s{sampling_seed}-i{initialization_seed}-` + the first 12 hex of SHA-256 of the canonical JSON of
 * `identity`. Number formatting can differ from the Python writer, so callers treat a mismatch as a warning.
 */
export function configIdFor(identity: Record<string, unknown>): string {
  const preparation = isPlainObject(identity.preparation) ? identity.preparation : {}
  const hash = sha256Bytes(canonicalJson(identity)).slice(0, CONFIG_ID_HASH_CHARS)
  return `prep-v1-s${String(preparation.sampling_seed)}-i${String(preparation.initialization_seed)}-${hash}`
}
