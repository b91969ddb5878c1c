// The scorer's final-versus-initial episode checks (scoring.md §3.2, environment.md §2.15); reads no files.
import { benchmarkPartId, type Episode } from '../episode/index.ts'
import { EvaluateError } from './errors.ts'

/** Manifest fields a run must keep exactly as the initial episode had them. */
const IDENTITY_FIELDS = ['id', 'producer', 'contract', 'engine', 'stateSpec', 'stateSize', 'model'] as const

/** The object catalogue a benchmark episode of these parts must carry, in order (§3.2 rule 1–2). */
export function expectedObjects(partIds: readonly string[]): { id: string; name: string; type: 'rigid'; collisionEnabled: false }[] {
  return partIds.map((partId, index) => ({ id: benchmarkPartId(index + 1), name: `Part ${partId}`, type: 'rigid', collisionEnabled: false }))
}

/**
 * Throws `EvaluateError` (code `EVALUATE_FINAL_MISMATCH`) unless `final` is a continuation of `initial` for
 * these parts: the same catalogue in both, the same identity fields, byte-identical `world/` members, and no
 * fewer calls than the initial episode. `source` names the final archive in messages.
 */
export function checkFinalAgainstInitial(final: Episode, initial: Episode, partIds: readonly string[], source: string): void {
  const fail = (message: string) => {
    throw new EvaluateError('EVALUATE_FINAL_MISMATCH', `${message}; score the episode exported from this sample's initial episode`, { file: source })
  }
  const objects = expectedObjects(partIds)
  if (!sameJson(initial.manifest.objects, objects)) fail(`the initial episode's objects are not the ${partIds.length} parts of evaluation.json (part-0001… named "Part <id>", rigid, collisionEnabled false)`)
  if (!sameJson(final.manifest.objects, objects)) fail('manifest.objects differs from the initial episode (the object catalogue must be kept exactly)')
  for (const field of IDENTITY_FIELDS) {
    if (!sameJson(final.manifest[field], initial.manifest[field])) fail(`manifest.${field} differs from the initial episode`)
  }
  const finalWorld = [...final.world.keys()].sort()
  const initialWorld = [...initial.world.keys()].sort()
  if (!sameJson(finalWorld, initialWorld)) fail(`world/ members differ from the initial episode (${describeSetDifference(finalWorld, initialWorld)})`)
  for (const path of initialWorld) {
    if (!sameBytes(final.world.get(path)!, initial.world.get(path)!)) {
      // An MJB world could in principle be equivalent after recompilation; our runtime keeps the bytes, so we require them.
      fail(`${path} is not byte-identical to the initial episode's (world files must be copied, never re-serialised)`)
    }
  }
  if (final.calls.length < initial.calls.length) fail(`it has ${final.calls.length} calls, fewer than the initial episode's ${initial.calls.length}`)
}

function describeSetDifference(actual: readonly string[], expected: readonly string[]): string {
  const missing = expected.filter(path => !actual.includes(path))
  const extra = actual.filter(path => !expected.includes(path))
  return [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `extra ${extra.join(', ')}` : ''].filter(Boolean).join('; ')
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))
}

/** Key order does not matter for equality of JSON objects; array order does. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map(key => [key, canonical((value as Record<string, unknown>)[key])]))
  }
  return value
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
