// Property tests with seeded synthetic data: invariances, no scale/reflection fitted, exact KD-tree, input errors.
import { describe, expect, it } from 'vitest'
import {
  KdTree, ScoringError, alignClouds, applyTransform, assignMinimumCost, bruteForceNearest, determinantMat3, quaternionToMatrix,
  scoreSample, type SampleInput,
} from '../../../src/scoring/index.ts'
import { randomBox, randomQuaternion, seededRandom } from './synthetic.ts'

const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1]

function assembly(seed: number, points = 120): SampleInput {
  const rng = seededRandom(seed)
  const ids = ['back', 'leg_a', 'leg_b', 'seat']
  const clouds = [[0.5, 0.05, 0.5], [0.05, 0.05, 0.45], [0.05, 0.05, 0.45], [0.5, 0.5, 0.05]].map(s => randomBox(rng, points, s))
  // Both legs share one cloud so they are truly equivalent parts.
  clouds[2] = clouds[1]!
  const gtPoses = [[0, 0.25, 0.5], [-0.2, -0.2, 0.2], [0.2, -0.2, 0.2], [0, 0, 0.45]].map(t => [...t, ...randomQuaternion(rng)])
  return { partIds: ids, clouds, gtPoses, finalPoses: gtPoses.map(gtFinal), groups: [['back'], ['leg_a', 'leg_b'], ['seat']], scaleDivisor: 1.1 }
}

function gtFinal(gt: ArrayLike<number>): { rotation: Float64Array; position: number[] } {
  return { rotation: quaternionToMatrix(new Float64Array(9), gt, 3), position: [gt[0]!, gt[1]!, gt[2]!] }
}

describe('scoreSample properties', () => {
  it('scores a global rigid motion of a perfect assembly SR 1 with a proper rotation', () => {
    const input = assembly(1)
    const motion = quaternionToMatrix(new Float64Array(9), [0.8, 0.2, -0.5, 0.3])
    const offset = [1.5, -0.7, 0.3]
    const finalPoses = input.gtPoses.map(gt => {
      const { rotation, position } = gtFinal(gt)
      const r = new Float64Array(9)
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[3 * i + j]! += motion[3 * i + k]! * rotation[3 * k + j]!
      const p = applyTransform(new Float64Array(3), position, motion, offset)
      return { rotation: r, position: Array.from(p) }
    })
    const score = scoreSample({ ...input, finalPoses })
    expect([score.SR, score.PA]).toEqual([1, 1])
    expect(score.alignment.chamfer).toBeLessThan(1e-20)
    expect(Math.abs(determinantMat3(score.alignment.rotation.flat()) - 1)).toBeLessThan(1e-12)
  })
  it('scores swapped equivalent parts SR 1 (Hungarian matches them crosswise)', () => {
    const input = assembly(2)
    const finalPoses = [...input.finalPoses]
    ;[finalPoses[1], finalPoses[2]] = [finalPoses[2]!, finalPoses[1]!]
    const score = scoreSample({ ...input, finalPoses })
    expect(score.SR).toBe(1)
    expect(score.parts.find(p => p.part_id === 'leg_a')!.target_part_id).toBe('leg_b')
  })
  it('fails the same swap when the legs are separate groups', () => {
    const input = assembly(2)
    const finalPoses = [...input.finalPoses]
    ;[finalPoses[1], finalPoses[2]] = [finalPoses[2]!, finalPoses[1]!]
    expect(scoreSample({ ...input, finalPoses, groups: [['back'], ['leg_a'], ['leg_b'], ['seat']] }).SR).toBe(0)
  })
  it.each([['scaled ×2', [2, 0, 0, 0, 2, 0, 0, 0, 2]], ['mirrored in x', [-1, 0, 0, 0, 1, 0, 0, 0, 1]]])('does not fit a %s assembly', (_label, m) => {
    // A chiral tripod: arms of lengths 0.6, 0.3, 0.15 along x, y, z (its mirror image is not a rotation of it).
    const rng = seededRandom(5)
    const t = new Float64Array(3 * 300)
    for (let i = 0; i < 300; i++) {
      const arm = i % 3
      t[3 * i + arm] = rng() * [0.6, 0.3, 0.15][arm]!
      for (let k = 0; k < 3; k++) if (k !== arm) t[3 * i + k] = (rng() - 0.5) * 0.02
    }
    const prediction = applyTransform(new Float64Array(t.length), t, m, [0, 0, 0])
    const { results, winner } = alignClouds(prediction, t)
    const best = results[winner]!
    expect(Math.abs(determinantMat3(best.rotation) - 1)).toBeLessThan(1e-9)
    expect(best.chamfer).toBeGreaterThan(1e-3)
  })
})

describe('input errors', () => {
  const base = assembly(3, 20)
  const code = (fn: () => unknown): string => {
    try {
      fn()
    } catch (error) {
      expect(error).toBeInstanceOf(ScoringError)
      return `${(error as ScoringError).code}: ${(error as ScoringError).message}`
    }
    throw new Error('expected a ScoringError')
  }
  it('names the part of a NaN point', () => {
    const clouds = [...base.clouds]
    const bad = Float64Array.from(clouds[3]!)
    bad[7] = Number.NaN
    clouds[3] = bad
    expect(code(() => scoreSample({ ...base, clouds }))).toMatch(/SCORING_NONFINITE_POINTS: points\["seat"\]\[2\]\[1\]: Nonfinite points/)
  })
  it('rejects a 999-point cloud when 1000 are required', () => {
    const input = assembly(4, 1000)
    const clouds = [...input.clouds]
    clouds[0] = Float64Array.from(clouds[0]!).slice(0, 999 * 3)
    expect(code(() => scoreSample({ ...input, clouds }, { pointsPerPart: 1000 }))).toMatch(/SCORING_BAD_CLOUD_SIZE: points\["back"\]: expected exactly 1000 points, got 999/)
  })
  it('rejects groups that are not a partition', () => {
    expect(code(() => scoreSample({ ...base, groups: [['back'], ['leg_a'], ['seat']] }))).toMatch(/SCORING_BAD_PARTITION.*"leg_b" are in no group/)
    expect(code(() => scoreSample({ ...base, groups: [['back', 'leg_a'], ['leg_a', 'leg_b'], ['seat']] }))).toMatch(/SCORING_BAD_PARTITION.*"leg_a" appears in more than one place/)
    expect(code(() => scoreSample({ ...base, groups: [['back'], ['leg_a', 'leg_b', 'x'], ['seat']] }))).toMatch(/unknown part id "x"/)
  })
  it('rejects a zero GT quaternion and a bad divisor', () => {
    const gtPoses = [...base.gtPoses]
    gtPoses[1] = [0, 0, 0, 0, 0, 0, 0]
    expect(code(() => scoreSample({ ...base, gtPoses }))).toMatch(/SCORING_ZERO_QUATERNION: gt_poses\["leg_a"\]: Expected a finite nonzero wxyz quaternion/)
    expect(code(() => scoreSample({ ...base, scaleDivisor: 0 }))).toMatch(/SCORING_BAD_DIVISOR/)
    expect(code(() => scoreSample({ ...base, scaleDivisor: Number.POSITIVE_INFINITY }))).toMatch(/SCORING_BAD_DIVISOR/)
  })
  it('rejects a degenerate (collinear) part', () => {
    const line = new Float64Array(30)
    for (let i = 0; i < 10; i++) line[3 * i] = i
    expect(code(() => alignClouds(line, line))).toMatch(/SCORING_DEGENERATE_PART.*Degenerate part/)
  })
  it('accepts a quaternion just above the norm limit and normalises it', () => {
    const r = quaternionToMatrix(new Float64Array(9), [2e-12, 0, 0, 0])
    expect(Array.from(r)).toEqual(identity)
  })
})

describe('KdTree', () => {
  const check = (cloud: Float64Array, queries: Float64Array) => {
    const tree = new KdTree(cloud)
    let hint = -1
    for (let i = 0; i < queries.length; i += 3) {
      const [x, y, z] = [queries[i]!, queries[i + 1]!, queries[i + 2]!]
      const brute = bruteForceNearest(cloud, x, y, z)
      const b = 3 * brute
      const bruteDist = (x - cloud[b]!) ** 2 + (y - cloud[b + 1]!) ** 2 + (z - cloud[b + 2]!) ** 2
      for (const h of [-1, hint]) {
        const pos = tree.nearest(x, y, z, h)
        expect(tree.distSq).toBe(bruteDist)
        const o = 3 * tree.order[pos]!
        expect((x - cloud[o]!) ** 2 + (y - cloud[o + 1]!) ** 2 + (z - cloud[o + 2]!) ** 2).toBe(bruteDist)
        // The second-nearest bound never exceeds the true second-nearest distance.
        let second = Infinity
        for (let j = 0; j < cloud.length / 3; j++) {
          if (j === tree.order[pos]) continue
          const d = (x - cloud[3 * j]!) ** 2 + (y - cloud[3 * j + 1]!) ** 2 + (z - cloud[3 * j + 2]!) ** 2
          if (d < second) second = d
        }
        expect(tree.secondLowerSq).toBeLessThanOrEqual(second)
        hint = pos
      }
    }
  }
  it('equals brute force on random data (with and without hints)', () => {
    const rng = seededRandom(9)
    const cloud = Float64Array.from({ length: 3 * 700 }, () => rng() - 0.5)
    check(cloud, Float64Array.from({ length: 3 * 300 }, () => 1.4 * (rng() - 0.5)))
  })
  it('equals brute force in distance on a grid with exact ties', () => {
    const cloud: number[] = []
    for (let i = 0; i < 9; i++) for (let j = 0; j < 9; j++) for (let k = 0; k < 9; k++) cloud.push(i * 0.25, j * 0.25, k * 0.25)
    const queries: number[] = []
    for (let i = 0; i < 200; i++) queries.push((i % 17) * 0.125, ((i * 7) % 13) * 0.125, ((i * 3) % 11) * 0.25)
    check(Float64Array.from(cloud), Float64Array.from(queries))
  })
})

describe('assignMinimumCost', () => {
  it('is optimal on float costs (enumeration check, including tiny and tied costs)', () => {
    const rng = seededRandom(13)
    const permutations = (n: number): number[][] => n === 1 ? [[0]] : permutations(n - 1).flatMap(p => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]))
    for (let trial = 0; trial < 60; trial++) {
      const m = 2 + (trial % 4)
      const scale = [1, 1e-30, 1e5][trial % 3]!
      const cost = Array.from({ length: m }, () => Array.from({ length: m }, () => Math.round(rng() * 20) * scale * (1 + rng() * 1e-12)))
      const total = (p: number[]) => p.reduce((s, c, r) => s + cost[r]![c]!, 0)
      const best = Math.min(...permutations(m).map(total))
      const mine = assignMinimumCost(cost)
      expect(new Set(mine).size).toBe(m)
      expect(total(mine)).toBeLessThanOrEqual(best * (1 + 1e-12))
    }
  })
})
