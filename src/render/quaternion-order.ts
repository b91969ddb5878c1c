// The one place where contract quaternions (w, x, y, z) meet three.js's (x, y, z, w) order; no other maths.
import type { Quaternion } from 'three'

/**
 * Writes the wxyz quaternion at `wxyz[offset..offset+3]` (MuJoCo / episode order) into `out` in three.js
 * order and returns `out`. No normalisation: callers pass what MuJoCo or the contract stored.
 * Captures need none of this (they place geoms from `geom_xmat`); code that holds contract
 * quaternions and drives three.js objects converts here and nowhere else.
 */
export function threeQuaternionFromWxyz(out: Quaternion, wxyz: ArrayLike<number>, offset = 0): Quaternion {
  const w = wxyz[offset] ?? Number.NaN
  const x = wxyz[offset + 1] ?? Number.NaN
  const y = wxyz[offset + 2] ?? Number.NaN
  const z = wxyz[offset + 3] ?? Number.NaN
  return out.set(x, y, z, w)
}
