// The pool keeps the target's Voronoi cells while consecutive samples share the ground truth (a per-step curve):
// every row stays bit-identical to scoring in this thread, and the cells are rebuilt as soon as the target changes.
import { describe, expect, it } from 'vitest'
import { quaternionToMatrix, scoreSample, type SampleInput } from '../../../../src/scoring/index.ts'
import { ScoringPool } from '../../../../src/scoring/workers/index.ts'
import { randomBox, randomQuaternion, seededRandom } from '../synthetic.ts'

const IDS = ['a', 'b', 'c']

/** One ground truth (seed 7); the final poses vary with `step`, as an agent's states do. */
function step(step: number, gtSeed = 7): SampleInput {
  const gt = seededRandom(gtSeed)
  const clouds = [[0.5, 0.5, 0.05], [0.05, 0.05, 0.45], [0.4, 0.05, 0.3]].map(s => randomBox(gt, 120, s))
  const gtPoses = IDS.map(() => [gt(), gt(), gt(), ...randomQuaternion(gt)])
  const rng = seededRandom(100 + step)
  const finalPoses = IDS.map(() => ({ rotation: quaternionToMatrix(new Float64Array(9), randomQuaternion(rng)), position: [rng() * 0.3, rng() * 0.3, rng() * 0.3] }))
  return { partIds: IDS, clouds, gtPoses, finalPoses, groups: [['a'], ['b'], ['c']], scaleDivisor: 1.1 }
}

describe('ScoringPool target cells', () => {
  it('reuses the target cells across steps of one sample and gives the in-thread rows bit for bit', async () => {
    const pool = new ScoringPool({ workers: 2, kernel: 'cells' })
    try {
      for (let k = 0; k < 3; k++) {
        const input = step(k)
        expect(JSON.stringify(await pool.scoreSample(input))).toBe(JSON.stringify(scoreSample(input)))
      }
      expect(pool.targetCellsReused).toBe(2)
      // Another ground truth: built afresh, then reused again.
      const other = step(0, 8)
      expect(JSON.stringify(await pool.scoreSample(other))).toBe(JSON.stringify(scoreSample(other)))
      expect(pool.targetCellsReused).toBe(2)
      await pool.scoreSample(step(1, 8))
      expect(pool.targetCellsReused).toBe(3)
    } finally {
      await pool.close()
    }
  })
})
