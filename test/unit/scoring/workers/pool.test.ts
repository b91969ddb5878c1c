// The worker pool: results bit-identical for 0, 1 and 2 workers; the pool is reusable and closes cleanly.
import { describe, expect, it } from 'vitest'
import { applyTransform, quaternionToMatrix, scoreSample, type SampleInput } from '../../../../src/scoring/index.ts'
import { ScoringPool } from '../../../../src/scoring/workers/index.ts'
import { randomBox, randomQuaternion, seededRandom } from '../synthetic.ts'

function sample(seed: number): SampleInput {
  const rng = seededRandom(seed)
  const sizes = [[0.5, 0.5, 0.05], [0.05, 0.05, 0.45], [0.05, 0.05, 0.45], [0.5, 0.05, 0.5]]
  const ids = ['a', 'b', 'c', 'd']
  const clouds = sizes.map(s => randomBox(rng, 150, s))
  const gtPoses = ids.map(() => [rng(), rng(), rng(), ...randomQuaternion(rng)])
  const finalPoses = ids.map((_, i) => ({
    rotation: quaternionToMatrix(new Float64Array(9), randomQuaternion(rng)),
    position: i === 0 ? [0, 0, 0] : [rng() * 0.3, rng() * 0.3, rng() * 0.3],
  }))
  return { partIds: ids, clouds, gtPoses, finalPoses, groups: [['a'], ['b', 'c'], ['d']], scaleDivisor: 0.9 }
}

describe('ScoringPool', () => {
  it('gives bit-identical rows for 0, 1 and 2 workers and is reusable across samples', async () => {
    const one = new ScoringPool({ workers: 1 })
    const two = new ScoringPool({ workers: 2 })
    try {
      for (const seed of [1, 2]) {
        const input = sample(seed)
        const inThread = scoreSample(input)
        const a = await one.scoreSample(input)
        const b = await two.scoreSample(input)
        expect(a).toStrictEqual(inThread)
        expect(b).toStrictEqual(inThread)
        expect(JSON.stringify(b)).toBe(JSON.stringify(inThread))
      }
    } finally {
      await one.close()
      await two.close()
    }
  })
  it('runs in-thread with workers: 0 and rejects after close', async () => {
    const pool = new ScoringPool({ workers: 0 })
    const input = sample(3)
    expect(await pool.scoreSample(input)).toStrictEqual(scoreSample(input))
    await pool.close()
    await expect(pool.scoreSample(input)).rejects.toThrow(/closed/)
  })
  it('rejects a bad worker count', () => {
    expect(() => new ScoringPool({ workers: -1 })).toThrow(/workers/)
  })
  it('keeps unrelated helpers usable (applyTransform is exported)', () => {
    expect(Array.from(applyTransform(new Float64Array(3), [1, 2, 3], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1]))).toEqual([2, 3, 4])
  })
})
