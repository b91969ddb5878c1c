import { describe, expect, test } from 'vitest'
import {
  benchmarkPartCount,
  benchmarkPartId,
  benchmarkStateSize,
  EpisodeError,
  latestFrame,
  partPositionOffset,
  partQuaternionOffset,
  readBenchmarkPoses,
} from '../../../src/episode/index.ts'
import { buildActiveEpisode, buildSetupEpisode, identityState } from '../../helpers/episode-fixture.ts'

/** Seeded LCG so the random quaternions are the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

function det3(m: Float64Array, o: number): number {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = m.subarray(o, o + 9)
  return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
}

describe('benchmark state layout', () => {
  test.each([[1, 38], [2, 69], [4, 131], [8, 255], [19, 596]])('%i parts → stateSize %i', (parts, size) => {
    expect(benchmarkStateSize(parts)).toBe(size)
    expect(benchmarkPartCount(size)).toBe(parts)
  })

  test('sizes that are not 31N + 7 have no part count; non-positive counts throw', () => {
    expect(benchmarkPartCount(70)).toBeUndefined()
    expect(benchmarkPartCount(7)).toBeUndefined()
    expect(() => benchmarkStateSize(0)).toThrow(EpisodeError)
    expect(() => benchmarkStateSize(1.5)).toThrow(EpisodeError)
  })

  test('qpos offsets: part i position at 1 + 7(i − 1), quaternion w at 4 + 7(i − 1); ids are 4-digit 1-based', () => {
    expect([1, 2, 3].map(partPositionOffset)).toEqual([1, 8, 15])
    expect([1, 2, 3].map(partQuaternionOffset)).toEqual([4, 11, 18])
    expect([1, 12, 123].map(benchmarkPartId)).toEqual(['part-0001', 'part-0012', 'part-0123'])
  })

  test('poses are read from qpos: positions verbatim, quaternions normalized, rotations from them', () => {
    const state = identityState(2)
    state.set([0.5, -1, 2], partPositionOffset(2))
    // 90° about z, scaled by 3: normalization must remove the scale.
    state.set([3 * Math.SQRT1_2, 0, 0, 3 * Math.SQRT1_2], partQuaternionOffset(2))
    const poses = readBenchmarkPoses(state, 2)
    expect(Array.from(poses.positions)).toEqual([0, 0, 0, 0.5, -1, 2])
    expect(Array.from(poses.rotations.subarray(0, 9))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1])
    const rz = Array.from(poses.rotations.subarray(9, 18))
    const expected = [0, -1, 0, 1, 0, 0, 0, 0, 1]
    rz.forEach((value, k) => expect(value).toBeCloseTo(expected[k] ?? Number.NaN, 15))
    expect(poses.quaternions[4]).toBeCloseTo(Math.SQRT1_2, 15)
  })

  test('rotations of random quaternions are proper (RᵀR = I, det R = +1)', () => {
    const random = seededRandom(7)
    const parts = 16
    const state = identityState(parts)
    for (let i = 1; i <= parts; i++) state.set([random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5], partQuaternionOffset(i))
    const { rotations } = readBenchmarkPoses(state, parts)
    for (let i = 0; i < parts; i++) {
      const o = 9 * i
      expect(det3(rotations, o)).toBeCloseTo(1, 12)
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
        let dot = 0
        for (let k = 0; k < 3; k++) dot += (rotations[o + 3 * k + r] ?? 0) * (rotations[o + 3 * k + c] ?? 0)
        expect(dot).toBeCloseTo(r === c ? 1 : 0, 12)
      }
    }
  })

  test('a zero quaternion and a wrong row length throw EPISODE_STATE_LAYOUT', () => {
    const state = identityState(2)
    state.fill(0, partQuaternionOffset(1), partQuaternionOffset(1) + 4)
    expect(() => readBenchmarkPoses(state, 2)).toThrow(expect.objectContaining({ code: 'EPISODE_STATE_LAYOUT', message: expect.stringContaining('part-0001') }))
    expect(() => readBenchmarkPoses(identityState(2), 3)).toThrow(expect.objectContaining({ code: 'EPISODE_STATE_LAYOUT' }))
  })
})

describe('latestFrame', () => {
  test('is the initial frame when there are no states', () => {
    const episode = buildSetupEpisode()
    expect(latestFrame(episode)).toBe(episode.initial)
  })

  test('is the state with the highest index, not the last array entry', async () => {
    const episode = await buildActiveEpisode()
    const first = episode.states[0]
    if (first === undefined) throw new Error('fixture has a state')
    const higher = { ...first, index: 2 }
    episode.states = [higher, first]
    expect(latestFrame(episode)).toBe(higher)
  })
})
