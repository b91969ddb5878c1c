// The scorer the evaluation glue uses: its backend label names the kernel, and a sample's wait for the samples queued
// before it is reported apart from its own computation.
import { describe, expect, it } from 'vitest'
import { createScorer, type ScoringTiming } from '../../../src/evaluate/index.ts'
import { quaternionToMatrix, type SampleInput } from '../../../src/scoring/index.ts'
import { randomBox, randomQuaternion, seededRandom } from '../scoring/synthetic.ts'

/** Two parts of 1000 points each (every evaluation.json has 1000 per part), seeded. */
function sample(seed: number): SampleInput {
  const rng = seededRandom(seed)
  const ids = ['a', 'b']
  const clouds = [randomBox(rng, 1000, [0.5, 0.5, 0.05]), randomBox(rng, 1000, [0.05, 0.05, 0.45])]
  const gtPoses = ids.map(() => [rng(), rng(), rng(), ...randomQuaternion(rng)])
  const finalPoses = ids.map(() => ({ rotation: quaternionToMatrix(new Float64Array(9), randomQuaternion(rng)), position: [rng() * 0.3, rng() * 0.3, rng() * 0.3] }))
  return { partIds: ids, clouds, gtPoses, finalPoses, groups: [['a'], ['b']], scaleDivisor: 1 }
}

describe('createScorer', () => {
  it('labels its backend after the ICP kernel that runs', async () => {
    const labels = []
    for (const kernel of ['cells', 'wasm', 'js'] as const) {
      const scorer = createScorer({ workers: 0, kernel })
      labels.push(scorer.backend)
      await scorer.close()
    }
    expect(labels).toEqual(['cpu-cells', 'cpu-kdtree-wasm', 'cpu-kdtree-js'])
  })

  it('reports the time a sample queued behind another apart from its own compute time', async () => {
    const scorer = createScorer({ workers: 1 })
    try {
      const first: ScoringTiming = { queueMs: -1, computeMs: -1 }
      const second: ScoringTiming = { queueMs: -1, computeMs: -1 }
      // Both submitted at once, as two block projects finishing together: the second waits for the first.
      const [a, b] = await Promise.all([scorer.score(sample(1), { timing: first }), scorer.score(sample(2), { timing: second })])
      expect(a.SR).toBeTypeOf('number')
      expect(b.SR).toBeTypeOf('number')
      for (const timing of [first, second]) expect(timing.computeMs).toBeGreaterThan(0)
      // Ordering, not speed: the second one's wait covers the whole of the first one's computation.
      expect(second.queueMs).toBeGreaterThanOrEqual(first.computeMs)
      expect(first.queueMs).toBeLessThan(second.queueMs)
    } finally {
      await scorer.close()
    }
  })
})
