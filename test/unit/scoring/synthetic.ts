// Test helper: seeded synthetic clouds and assemblies for property tests (no Math.random).
import { mulberry32 } from '../../../src/shared/mulberry32.ts'

/** Mulberry32: a small seeded PRNG returning floats in [0, 1). */
export const seededRandom = mulberry32

/** n points on the surface of an axis-aligned box of the given full sizes, centred at the origin. */
export function randomBox(rng: () => number, n: number, size: readonly number[]): Float64Array {
  const out = new Float64Array(3 * n)
  for (let i = 0; i < n; i++) {
    const face = Math.floor(rng() * 6)
    const axis = face % 3
    for (let k = 0; k < 3; k++) out[3 * i + k] = (rng() - 0.5) * size[k]!
    out[3 * i + axis] = (face < 3 ? -0.5 : 0.5) * size[axis]!
  }
  return out
}

/** A random unit quaternion [w, x, y, z]. */
export function randomQuaternion(rng: () => number): number[] {
  const q = [rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5]
  const n = Math.hypot(...q)
  return q.map(x => x / n)
}
