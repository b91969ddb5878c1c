// The float32 → float64 certificate (certify.ts) and renderer classification (detect.ts): soundness on seeded
// near-ties probed ulp by ulp, the error bound against emulated float32 arithmetic, and the software/hardware rule.
import { describe, expect, it } from 'vitest'
import {
  FLOAT32_ROUNDING, GPU_NO_CANDIDATE, classifyRenderer, cloudBounds, isCertified, otherPointsLowerBound, pointErrorBound, queryErrorBound,
} from '../../../../src/scoring/gpu/index.ts'
import { mulberry32 } from '../../../../src/shared/mulberry32.ts'


/** The next float64 above x (x > 0). */
function nextUp(x: number): number {
  const v = new DataView(new ArrayBuffer(8))
  v.setFloat64(0, x)
  v.setBigUint64(0, v.getBigUint64(0) + 1n)
  return v.getFloat64(0)
}

/** What the GPU kernel computes, in IEEE float32: identity map, nearest index and second distance. */
function float32Nearest(query: readonly number[], cloud: Float64Array): { index: number; second: number } {
  const f = Math.fround
  const x = f(query[0]!), y = f(query[1]!), z = f(query[2]!)
  let best = GPU_NO_CANDIDATE, second = GPU_NO_CANDIDATE, index = -1
  for (let j = 0; j < cloud.length / 3; j++) {
    const dx = f(x - f(cloud[3 * j]!)), dy = f(y - f(cloud[3 * j + 1]!)), dz = f(z - f(cloud[3 * j + 2]!))
    const d = f(f(f(dx * dx) + f(dy * dy)) + f(dz * dz))
    if (d < best) { second = best; best = d; index = j } else if (d < second) second = d
  }
  return { index, second }
}

/** The float64 argmin (first minimum) and whether it is unique. */
function float64Nearest(query: readonly number[], cloud: Float64Array): { index: number; distSq: number; isUnique: boolean } {
  let best = Infinity, index = -1, count = 0
  for (let j = 0; j < cloud.length / 3; j++) {
    const dx = query[0]! - cloud[3 * j]!, dy = query[1]! - cloud[3 * j + 1]!, dz = query[2]! - cloud[3 * j + 2]!
    const d = dx * dx + dy * dy + dz * dz
    if (d < best) { best = d; index = j; count = 1 } else if (d === best) count++
  }
  return { index, distSq: best, isUnique: count === 1 }
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]

function certifies(query: number[], cloud: Float64Array): { isOk: boolean; index: number } {
  const gpu = float32Nearest(query, cloud)
  const bound = queryErrorBound(IDENTITY, [Math.abs(query[0]!), Math.abs(query[1]!), Math.abs(query[2]!)]) + pointErrorBound(cloudBounds(cloud).maxNorm)
  const dx = query[0]! - cloud[3 * gpu.index]!, dy = query[1]! - cloud[3 * gpu.index + 1]!, dz = query[2]! - cloud[3 * gpu.index + 2]!
  return { isOk: isCertified(dx * dx + dy * dy + dz * dz, otherPointsLowerBound(gpu.second, bound)), index: gpu.index }
}

describe('certificate', () => {
  it('never certifies an exact tie, nor near-ties up to well past float32 resolution; certifies clear winners', () => {
    // Two points at x = ±a around a query at 0, the far one nudged outward by k float64 ulps of a.
    const a = 0.3
    let d = a
    const verdicts: [number, boolean][] = []
    for (const k of [0, 1, 2, 4, 2 ** 10, 2 ** 20, 2 ** 29, 2 ** 33, 2 ** 40]) {
      d = a
      for (let i = 0; i < Math.min(k, 8); i++) d = nextUp(d)
      if (k > 8) d = a * (1 + k * 2 ** -53)
      const cloud = Float64Array.from([-a, 0.1, 0.2, d, 0.1, 0.2])
      verdicts.push([k, certifies([0, 0.1, 0.2], cloud).isOk])
    }
    // float32 resolves ~2^-24 relative; the certificate demands a gap of ~1e-5 (the pessimistic GPU model): a gap of
    // 2^-20 (k = 2^33 ulps) still falls back, 2^-13 certifies.
    expect(verdicts).toEqual([[0, false], [1, false], [2, false], [4, false], [2 ** 10, false], [2 ** 20, false], [2 ** 29, false], [2 ** 33, false], [2 ** 40, true]])
  })

  it('is sound on 20 000 seeded adversarial queries: certified ⇒ the unique float64 nearest point', () => {
    const rand = mulberry32(18)
    let certified = 0
    for (let trial = 0; trial < 20_000; trial++) {
      // A small cloud with planted near-duplicates of one point and a query on their bisector ± a few ulps.
      const n = 8
      const cloud = new Float64Array(3 * n)
      for (let i = 0; i < 3 * n; i++) cloud[i] = (rand() - 0.5) * (trial % 3 === 0 ? 1e3 : 1)
      const scale = 10 ** -Math.floor(rand() * 12)
      cloud[3] = cloud[0]! + scale * (rand() - 0.5); cloud[4] = cloud[1]!; cloud[5] = cloud[2]!
      const t = 0.5 + (rand() - 0.5) * 2 ** -Math.floor(rand() * 52)
      const query = [cloud[0]! + t * (cloud[3]! - cloud[0]!), cloud[1]! + (rand() - 0.5) * scale, cloud[2]!]
      const { isOk, index } = certifies(query, cloud)
      if (!isOk) continue
      certified++
      const exact = float64Nearest(query, cloud)
      expect(exact.isUnique).toBe(true)
      expect(index).toBe(exact.index)
    }
    expect(certified).toBeGreaterThan(500)
  })

  it('bounds the emulated float32 query error of random affine maps', () => {
    const rand = mulberry32(7)
    const f = Math.fround
    for (let trial = 0; trial < 5000; trial++) {
      const A = Array.from({ length: 12 }, () => (rand() - 0.5) * 4)
      const s = [rand() - 0.5, rand() - 0.5, rand() - 0.5].map(v => v * 10 ** Math.floor(rand() * 6 - 3))
      const bound = queryErrorBound(A, s.map(Math.abs))
      let err2 = 0
      for (let r = 0; r < 3; r++) {
        const exact = A[3 * r]! * s[0]! + A[3 * r + 1]! * s[1]! + A[3 * r + 2]! * s[2]! + A[9 + r]!
        const gpu = f(f(f(f(f(A[3 * r]!) * f(s[0]!)) + f(f(A[3 * r + 1]!) * f(s[1]!))) + f(f(A[3 * r + 2]!) * f(s[2]!))) + f(A[9 + r]!))
        err2 += (gpu - exact) ** 2
      }
      expect(Math.sqrt(err2)).toBeLessThanOrEqual(bound)
    }
    expect(pointErrorBound(2)).toBeGreaterThanOrEqual(2 * FLOAT32_ROUNDING)
  })

  it('a missing second candidate certifies nothing', () => {
    expect(otherPointsLowerBound(GPU_NO_CANDIDATE, 0)).toBe(0)
    expect(otherPointsLowerBound(Number.NaN, 0)).toBe(0)
    expect(isCertified(0, 0)).toBe(false)
  })
})

describe('renderer classification', () => {
  it.each([
    ['ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)', 'gpu', 'software'],
    ['ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits), OpenGL ES 3.2)', 'gpu', 'software'],
    ['Google SwiftShader', 'webgl2', 'software'],
    ['ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11)', 'webgl2', 'software'],
    ['ANGLE (NVIDIA, Vulkan 1.3.277 (NVIDIA H200 (0x00002335)), NVIDIA)', 'gpu', 'hardware'],
    ['ANGLE (NVIDIA Corporation, NVIDIA GeForce RTX 4090/PCIe/SSE2, OpenGL ES 3.2)', 'webgl2', 'hardware'],
    ['no WebGL2', 'cpu', 'none'],
    ['ANGLE (NVIDIA, …)', 'cpu', 'none'],
  ])('%s (gpu.js mode %s) is %s', (renderer, mode, kind) => {
    expect(classifyRenderer(renderer, mode)).toBe(kind)
  })
})
