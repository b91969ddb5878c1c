// KdTree edge cases for the hinted search: any hint, duplicates, tiny clouds, points on split planes, far queries.
import { describe, expect, it } from 'vitest'
import { KdTree, bruteForceNearest } from '../../../src/scoring/index.ts'
import { randomBox, seededRandom } from './synthetic.ts'

/** Exact float nearest and second-nearest squared distances by brute force (second over every other index). */
function bruteTwo(cloud: Float64Array, x: number, y: number, z: number): { best: number; second: number } {
  const b = 3 * bruteForceNearest(cloud, x, y, z)
  const best = (x - cloud[b]!) ** 2 + (y - cloud[b + 1]!) ** 2 + (z - cloud[b + 2]!) ** 2
  let second = Infinity
  for (let j = 0; j < cloud.length; j += 3) {
    if (j === b) continue
    const dx = x - cloud[j]!, dy = y - cloud[j + 1]!, dz = z - cloud[j + 2]!
    const d = dx * dx + dy * dy + dz * dz
    if (d < second) second = d
  }
  return { best, second }
}

/** Every query with no hint and with each given hint: exact distance, exact second distance, answer at that distance. */
function expectExact(cloud: Float64Array, queries: Float64Array, hints: (k: number) => number[]): void {
  const tree = new KdTree(cloud)
  for (let k = 0; k < queries.length / 3; k++) {
    const x = queries[3 * k]!, y = queries[3 * k + 1]!, z = queries[3 * k + 2]!
    const want = bruteTwo(cloud, x, y, z)
    for (const hint of [-1, ...hints(k)]) {
      const pos = tree.nearest(x, y, z, hint)
      const o = 3 * tree.order[pos]!
      expect(tree.distSq, `query ${k} hint ${hint}`).toBe(want.best)
      expect((x - cloud[o]!) ** 2 + (y - cloud[o + 1]!) ** 2 + (z - cloud[o + 2]!) ** 2).toBe(want.best)
      expect(tree.secondLowerSq, `query ${k} hint ${hint}: second`).toBe(want.second)
    }
  }
}

describe('KdTree hinted search', () => {
  it('is exact for far and near queries on a surface cloud, whatever the hint', () => {
    const rng = seededRandom(21)
    const cloud = randomBox(rng, 1500, [0.5, 0.3, 0.05])
    const queries = Float64Array.from({ length: 3 * 150 }, (_, i) => (i % 2 === 0 ? 3 : 0.6) * (rng() - 0.5))
    expectExact(cloud, queries, k => [k % 1500, (k * 389) % 1500, 1499 - k])
  })

  it('is exact on a grid where many points and queries lie on split planes', () => {
    const cloud: number[] = []
    for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) for (let k = 0; k < 6; k++) cloud.push(i * 0.5, j * 0.5, k * 0.5)
    const queries: number[] = []
    for (let i = 0; i < 120; i++) queries.push((i % 15) * 0.25, ((i * 7) % 16) * 0.25, ((i * 5) % 11) * 0.25)
    expectExact(Float64Array.from(cloud), Float64Array.from(queries), k => [k, (k * 97) % 384])
  })

  it('handles exact duplicate points (a hint whose nearest other point is at distance 0)', () => {
    const rng = seededRandom(5)
    const base = randomBox(rng, 200, [0.2, 0.2, 0.2])
    const cloud = new Float64Array(1200)
    cloud.set(base, 0)
    cloud.set(base, 600)
    const queries = Float64Array.from({ length: 3 * 60 }, () => 0.4 * (rng() - 0.5))
    expectExact(cloud, queries, k => [k, 399 - k])
    const tree = new KdTree(cloud)
    tree.nearest(cloud[0]!, cloud[1]!, cloud[2]!, 0)
    expect([tree.distSq, tree.secondLowerSq]).toEqual([0, 0])
  })

  it('works on one- and two-point clouds (no second point: second distance is Infinity)', () => {
    const one = new KdTree([1, 2, 3])
    expect(one.nearest(0, 0, 0, -1)).toBe(0)
    expect(one.nearest(4, 4, 4, 0)).toBe(0)
    expect([one.distSq, one.secondLowerSq]).toEqual([9 + 4 + 1, Infinity])
    const two = new Float64Array([0, 0, 0, 1, 0, 0])
    expectExact(two, Float64Array.from([0.2, 0, 0, 0.9, 1, 0, -5, 0, 0]), () => [0, 1])
  })
})
