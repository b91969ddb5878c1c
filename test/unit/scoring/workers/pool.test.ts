// The worker pool: results bit-identical for 0, 1, 2 and 3 workers and every kernel; the pool is reusable, survives a
// dead worker and closes cleanly.
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { applyTransform, finishSample, planSample, quaternionToMatrix, scoreSample, type SampleInput } from '../../../../src/scoring/index.ts'
import { runStarts } from '../../../../src/scoring/align.ts'
import { ScoringPool } from '../../../../src/scoring/workers/index.ts'
import { CLAIM_GROUP_TOLERANCE, claimGroups } from '../../../../src/scoring/workers/pool.ts'
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

describe('claimGroups', () => {
  it('claims starts that begin within CLAIM_GROUP_TOLERANCE together, every index once, in first-start order', () => {
    const at = (name: string, x: number) => ({ name, rotation: new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]), translation: new Float64Array([x, 0, 0]) })
    const starts = [at('pca-0', 0), at('pca-1', 0.5), at('part-0', 0.1), at('part-1', 0.1 + CLAIM_GROUP_TOLERANCE / 2), at('part-2', 0.1 + 2 * CLAIM_GROUP_TOLERANCE), at('part-3', 0.1)]
    expect(claimGroups(starts)).toEqual([[0], [1], [2, 3, 5], [4]])
  })
})

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
  it('gives the JS reference\'s rows with every kernel and worker count (cells built in chunks by 3 workers included)', async () => {
    const input = sample(4)
    const plan = planSample(input)
    const reference = JSON.stringify(finishSample(plan, runStarts(plan.prepared.prediction, plan.prepared.target, plan.starts, 'js')))
    const pools = [
      new ScoringPool({ workers: 0, kernel: 'cells' }),
      new ScoringPool({ workers: 3, kernel: 'cells' }),
      new ScoringPool({ workers: 2, kernel: 'wasm' }),
      new ScoringPool({ workers: 1, kernel: 'js' }),
    ]
    try {
      for (const pool of pools) expect(JSON.stringify(await pool.scoreSample(input)), `${pool.workers} workers, ${pool.kernel}`).toBe(reference)
    } finally {
      await Promise.all(pools.map(p => p.close()))
    }
  })
  it('fails only the sample whose worker dies, then scores the next one with fresh workers', async () => {
    const pool = new ScoringPool({ workers: 2 })
    try {
      const input = sample(5)
      const dying = pool.scoreSample(input)
      // Let the pool start its workers and hand out the job, then kill one of them from outside.
      const threads = () => Reflect.get(pool, 'threads') as Worker[]
      await expect.poll(() => threads().length).toBe(2)
      await threads()[0]!.terminate()
      await expect(dying).rejects.toMatchObject({ code: 'SCORING_WORKER_FAILED' })
      expect(await pool.scoreSample(input)).toStrictEqual(scoreSample(input))
    } finally {
      await pool.close()
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
