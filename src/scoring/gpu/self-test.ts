// Checks a freshly opened NearestDevice against float64 brute force on seeded clouds before it scores anything: the
// premise of the certificate (certify.ts) must hold for every query. No scoring, no timing.
import { ScoringError } from '../errors.ts'
import { cloudBounds, otherPointsLowerBound, pointErrorBound, queryErrorBound } from './certify.ts'
import type { NearestDevice } from './device.ts'
import { mulberry32 } from '../../shared/mulberry32.ts'

/** Cloud sizes of the self-test: tiny, and sizes whose textures are not powers of two (where a gpu.js bug showed). */
export const SELF_TEST_SIZES: readonly number[] = [7, 1000, 2000]

/** Two maps per cloud: a small shift, and a 30° turn about z with a shift (float64; the device gets float32). */
const SELF_TEST_MAPS = Float64Array.from([
  1, 0, 0, 0, 1, 0, 0, 0, 1, 0.01, -0.02, 0.003,
  Math.cos(Math.PI / 6), -Math.sin(Math.PI / 6), 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6), 0, 0, 0, 1, 0.05, 0, -0.01,
])

function seededCloud(n: number, seed: number): Float64Array {
  const random = mulberry32(seed)
  const out = new Float64Array(3 * n)
  for (let i = 0; i < out.length; i++) out[i] = (random() - 0.5) * (i % 3 === 2 ? 0.2 : 1)
  return out
}

/**
 * Runs SELF_TEST_SIZES clouds through the device and checks every answer by brute force: the index names a point and
 * the second distance really bounds every other point (within the error model). Throws `SCORING_GPU_UNTRUSTED`
 * naming the renderer when a single answer fails; returns the fraction of answers that would have certified.
 */
export async function selfTestDevice(device: NearestDevice): Promise<number> {
  let checked = 0, certifiable = 0
  for (const [k, n] of SELF_TEST_SIZES.entries()) {
    const cloud = seededCloud(n, 1800 + k)
    const id = await device.upload(Float32Array.from(cloud))
    try {
      const [answers] = await device.nearest([{ source: id, target: id, affines: Float32Array.from(SELF_TEST_MAPS) }])
      if (answers === undefined || answers.index.length !== 2 * n || answers.second.length !== 2 * n) {
        throw new ScoringError('SCORING_GPU_UNTRUSTED', `GPU self-test on ${device.renderer}: a ${n}-point batch came back with the wrong shape`)
      }
      const { absMax, maxNorm } = cloudBounds(cloud)
      for (let map = 0; map < 2; map++) {
        const A = SELF_TEST_MAPS.subarray(12 * map, 12 * map + 12)
        const bound = queryErrorBound(A, absMax) + pointErrorBound(maxNorm)
        for (let i = 0; i < n; i++) {
          const sx = cloud[3 * i]!, sy = cloud[3 * i + 1]!, sz = cloud[3 * i + 2]!
          const x = A[0]! * sx + A[1]! * sy + A[2]! * sz + A[9]!
          const y = A[3]! * sx + A[4]! * sy + A[5]! * sz + A[10]!
          const z = A[6]! * sx + A[7]! * sy + A[8]! * sz + A[11]!
          const j = answers.index[map * n + i]!
          if (!(Number.isInteger(j) && j >= 0 && j < n)) {
            throw new ScoringError('SCORING_GPU_UNTRUSTED', `GPU self-test on ${device.renderer}: query ${i} of a ${n}-point cloud got index ${j}, which names no point`)
          }
          let otherSq = Infinity
          for (let p = 0; p < n; p++) {
            if (p === j) continue
            const dx = x - cloud[3 * p]!, dy = y - cloud[3 * p + 1]!, dz = z - cloud[3 * p + 2]!
            const d = dx * dx + dy * dy + dz * dz
            if (d < otherSq) otherSq = d
          }
          const lower = otherPointsLowerBound(answers.second[map * n + i]!, bound)
          if (lower > Math.sqrt(otherSq) * (1 + 1e-12)) {
            throw new ScoringError('SCORING_GPU_UNTRUSTED', `GPU self-test on ${device.renderer}: query ${i} of a ${n}-point cloud claims no other point within ${lower}, but one is at ${Math.sqrt(otherSq)}; this GPU / gpu.js combination cannot be trusted: use --backend cpu`)
          }
          const dx = x - cloud[3 * j]!, dy = y - cloud[3 * j + 1]!, dz = z - cloud[3 * j + 2]!
          if (Math.sqrt(dx * dx + dy * dy + dz * dz) < lower) certifiable++
          checked++
        }
      }
    } finally {
      await device.release([id])
    }
  }
  return certifiable / checked
}
