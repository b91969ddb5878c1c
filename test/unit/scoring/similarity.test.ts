// Geometry-similarity grouping against conformance 09 and the shape distance of §2.2.
import { describe, expect, it } from 'vitest'
import { applyTransform, quaternionToMatrix, shapeDistance, similarityGroups } from '../../../src/scoring/index.ts'
import { readVector } from './load-conformance.ts'
import { randomBox, seededRandom } from './synthetic.ts'

describe('similarityGroups (conformance 09)', () => {
  const v = readVector('09_similarity_groups.json') as { ids: string[]; distances: number[][]; cases: { threshold: number; groups: string[][] }[] }
  it.each(v.cases.map(c => [c.threshold, c] as const))('threshold %f', (_t, c) => {
    expect(similarityGroups(v.distances, c.threshold).map(g => g.map(i => v.ids[i]!))).toEqual(c.groups)
  })
  it('orders components by smallest member', () => {
    expect(similarityGroups([[0, 5, 0], [5, 0, 5], [0, 5, 0]], 1)).toEqual([[0, 2], [1]])
  })
})

describe('shapeDistance (§2.2)', () => {
  it('is ~0 for a rigidly moved copy and large for a different shape', () => {
    const rng = seededRandom(11)
    const a = randomBox(rng, 300, [0.4, 0.2, 0.1])
    const r = quaternionToMatrix(new Float64Array(9), [0.3, -0.5, 0.7, 0.2])
    const moved = applyTransform(new Float64Array(a.length), a, r, [3, 1, -2])
    expect(shapeDistance(a, moved, 1)).toBeLessThan(1e-20)
    expect(shapeDistance(a, randomBox(rng, 300, [0.4, 0.4, 0.02]), 1)).toBeGreaterThan(1e-4)
  })
})
