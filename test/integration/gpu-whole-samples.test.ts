// The lockstep GPU scorer on a whole, full-size sample (1000 points per part, every start, matching and metrics),
// bit-identical to the CPU backend. The device answers exactly like the page kernel's float32 brute force
// (KdFloat32Device, proven equal to Float32EmulationDevice below) at KD-tree speed, still ~1.5 µs per query: a
// whole sample is 5–30 M queries, so `npm run bench:gpu-exact` checks every awb-mini sample and chair pose, and the
// real gpu.js page runs selected starts of the same samples in test/integration/gpu-scoring.test.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { scoreSample, type SampleInput } from '../../src/scoring/index.ts'
import { Float32EmulationDevice } from '../../src/scoring/gpu/float32-device.ts'
import { emptyLockstepStats } from '../../src/scoring/gpu/lockstep.ts'
import { scoreSamplesOnDevice } from '../../src/scoring/gpu/score-samples-on-device.ts'
import { floatBits } from '../helpers/float-bits.ts'
import { KdFloat32Device } from '../helpers/kd-float32-device.ts'
import { mulberry32 } from '../../src/shared/mulberry32.ts'
import { perturbedSample, readEvaluation } from '../helpers/perturbed-sample.ts'

const AWB_MINI = fileURLToPath(new URL('../../fixtures/awb-mini/', import.meta.url))

/** The awb-mini sample with the fewest points to search (2 parts); `npm run bench:gpu-exact` checks all of them. */
const SMALLEST_SAMPLE = 'fantastic-breaks-none/fantastic-breaks/prep-v1-s0-i0-eff1f415ff36/cache/16--16256'

/** Scores `inputs` in one lockstep batch on the KD float32 device; each must equal the CPU backend bit for bit. */
async function expectSameRows(inputs: readonly SampleInput[]) {
  const stats = emptyLockstepStats()
  const outcomes = await scoreSamplesOnDevice(new KdFloat32Device(), inputs, {}, stats)
  expect(outcomes.every(o => 'score' in o)).toBe(true)
  expect(floatBits(outcomes)).toBe(floatBits(inputs.map(input => ({ score: scoreSample(input) }))))
  return stats
}

describe('KdFloat32Device', () => {
  it('answers exactly like the float32 brute force: ties, duplicates, flat clouds, far queries', async () => {
    const random = mulberry32(7)
    const clouds = [
      Float32Array.from({ length: 3 * 300 }, () => random() - 0.5),
      // A regular 4×4×4 grid with step 0.25 (exact distance ties everywhere), every point twice.
      Float32Array.from({ length: 3 * 128 }, (_, k) => ((Math.floor(k / 6) >> (2 * (k % 3))) & 3) * 0.25),
      // A flat cloud (all z = 0.5) and a one-point cloud.
      Float32Array.from({ length: 3 * 200 }, (_, k) => (k % 3 === 2 ? 0.5 : random() * 4)),
      Float32Array.from([0.1, 0.2, 0.3]),
    ]
    const brute = new Float32EmulationDevice(), kd = new KdFloat32Device()
    for (const source of clouds) {
      for (const target of clouds) {
        // Identity, a turn, a scaled far-away shift (queries far outside the cloud), and a half-step shift.
        const affines = Float32Array.from([
          1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
          0.6, -0.8, 0, 0.8, 0.6, 0, 0, 0, 1, 0.05, -0.1, 0.2,
          2, 0, 0, 0, 2, 0, 0, 0, 2, 30, -20, 10,
          1, 0, 0, 0, 1, 0, 0, 0, 1, 0.125, 0.125, 0,
        ])
        const groups = [{ source: await brute.upload(source), target: await brute.upload(target), affines }]
        const kdGroups = [{ source: await kd.upload(source), target: await kd.upload(target), affines }]
        const [expected] = await brute.nearest(groups)
        const [actual] = await kd.nearest(kdGroups)
        expect(floatBits(actual)).toBe(floatBits(expected))
      }
    }
  })
})

describe('lockstep scoring of a whole full-size sample (KD float32 device)', () => {
  it('awb-mini 16--16256 (2 × 1000 points, every start): near-perfect and scrambled rows in one batch, bit-identical to the CPU backend', async () => {
    const evaluation = readEvaluation(join(AWB_MINI, SMALLEST_SAMPLE, 'evaluation.json'))
    const stats = await expectSameRows([perturbedSample(evaluation, 16, 0.05, 0.01), perturbedSample(evaluation, 17, 1.5, 0.2)])
    expect(stats.certified / stats.queries).toBeGreaterThan(0.9)
  }, 120_000)
})
