// The lockstep GPU scorer with the float32 emulation device: bit-identical to the CPU backend on conformance vectors,
// on adversarial near-ties and against devices that answer wrongly.
import { describe, expect, it } from 'vitest'
import { alignmentStarts, IcpContext, quaternionToMatrix, runStarts, scoreSample, type SampleInput } from '../../../../src/scoring/index.ts'
import { Float32EmulationDevice } from '../../../../src/scoring/gpu/float32-device.ts'
import { emptyLockstepStats, runStartsLockstep } from '../../../../src/scoring/gpu/lockstep.ts'
import { scoreSamplesOnDevice } from '../../../../src/scoring/gpu/score-samples-on-device.ts'
import { selfTestDevice } from '../../../../src/scoring/gpu/self-test.ts'
import type { NearestAnswers, NearestDevice, NearestGroup } from '../../../../src/scoring/gpu/device.ts'
import { floatBits } from '../../../helpers/float-bits.ts'
import { flat, readVector, sampleFromEvaluation, type EvaluationLike, type PosesFile } from '../load-conformance.ts'

type Rows = number[][]
const q = (w: number[]) => quaternionToMatrix(new Float64Array(9), w)

/** A device that passes every group to `inner` and then rewrites the answers (to test that lies cost only speed). */
class TamperingDevice implements NearestDevice {
  readonly renderer = 'tampering test device'
  readonly mode = 'emulation'
  private readonly inner: NearestDevice
  private readonly tamper: (answers: NearestAnswers, group: NearestGroup) => void
  constructor(inner: NearestDevice, tamper: (answers: NearestAnswers, group: NearestGroup) => void) {
    this.inner = inner
    this.tamper = tamper
  }
  upload(cloud: Float32Array): Promise<number> { return this.inner.upload(cloud) }
  release(ids: readonly number[]): Promise<void> { return this.inner.release(ids) }
  async nearest(groups: readonly NearestGroup[]): Promise<NearestAnswers[]> {
    const answers = await this.inner.nearest(groups)
    answers.forEach((a, g) => this.tamper(a, groups[g]!))
    return answers
  }
  close(): Promise<void> { return this.inner.close() }
}

async function expectSameStarts(prediction: Float64Array, target: Float64Array, device: NearestDevice = new Float32EmulationDevice()) {
  const starts = alignmentStarts(prediction, target)
  const cpu = runStarts(prediction, target, starts)
  const stats = emptyLockstepStats()
  const [gpu] = await runStartsLockstep(device, [{ prediction, target, starts }], stats)
  expect(floatBits(gpu)).toBe(floatBits(cpu))
  return stats
}

describe('lockstep scoring on the float32 emulation device', () => {
  const v02 = readVector('02_global_alignment.json') as { target: Rows[]; cases: { prediction: Rows[] }[] }
  v02.cases.forEach((c, index) => {
    it(`02 global alignment case ${index}: every start bit-identical to the CPU`, async () => {
      const stats = await expectSameStarts(flat(c.prediction.flat()), flat(v02.target.flat()))
      expect(stats.queries).toBe(stats.certified + stats.fallbacks)
      expect(stats.certified).toBeGreaterThan(stats.fallbacks)
    })
  })

  const v04 = readVector('04_no_scale_no_reflection.json') as { target: Rows; cases: { label: string; prediction: Rows }[] }
  v04.cases.forEach(c => {
    it(`04 ${c.label}: bit-identical`, async () => { await expectSameStarts(flat(c.prediction), flat(v04.target)) })
  })

  it('05 relative orientation: bit-identical', async () => {
    const v = readVector('05_relative_orientation.json') as { target: Rows[]; prediction: Rows[] }
    await expectSameStarts(flat(v.prediction.flat()), flat(v.target.flat()))
  })

  // The emulation is a float32 brute force in JS: the 1000-point fixture is cut to its first 120 points here (the
  // browser test scores the whole fixture on the software GPU).
  function smallFixture(): SampleInput {
    const v = readVector('06_bench_fixture.json') as { evaluation: EvaluationLike; final_poses: PosesFile }
    const evaluation = structuredClone(v.evaluation)
    for (const id of evaluation.part_ids) evaluation.points[id] = evaluation.points[id]!.slice(0, 120)
    return sampleFromEvaluation(evaluation, v.final_poses, q)
  }

  it('06 bench fixture (first 120 points): the whole sample row is bit-identical, batched with a second sample', async () => {
    const input = smallFixture()
    const moved: SampleInput = { ...input, finalPoses: input.finalPoses.map(p => ({ rotation: p.rotation, position: [p.position[0]! + 0.05, p.position[1]!, p.position[2]!] })) }
    const stats = emptyLockstepStats()
    const outcomes = await scoreSamplesOnDevice(new Float32EmulationDevice(), [input, moved], {}, stats)
    expect(floatBits(outcomes)).toBe(floatBits([{ score: scoreSample(input) }, { score: scoreSample(moved) }]))
    expect(stats.rounds).toBeGreaterThan(0)
  })

  it('an invalid sample becomes an error outcome and the others are still scored', async () => {
    const input = smallFixture()
    const broken: SampleInput = { ...input, scaleDivisor: 0 }
    const [bad, good] = await scoreSamplesOnDevice(new Float32EmulationDevice(), [broken, input])
    expect(bad).toHaveProperty('error')
    expect(String((bad as { error: unknown }).error)).toMatch(/scale_divisor/)
    expect(good).toHaveProperty('score')
  })
})

describe('adversarial near-ties and wrong device answers', () => {
  // A seeded grid cloud: exact ties everywhere (equal float64 distances), where the KD hint decides.
  function grid(): Float64Array {
    const out: number[] = []
    for (let x = 0; x < 6; x++) for (let y = 0; y < 5; y++) for (let z = 0; z < 4; z++) out.push(x * 0.25, y * 0.25, z * 0.25)
    return Float64Array.from(out)
  }

  it('exact ties (a regular grid and its half-step shift) fall back to the KD search and match the CPU', async () => {
    const target = grid()
    const prediction = target.map((c, i) => (i % 3 === 0 ? c + 0.125 : c))
    const stats = await expectSameStarts(prediction, target)
    expect(stats.fallbacks).toBeGreaterThan(0)
  })

  it('near-ties one ulp to 1e-7 apart are decided in float64, never by the float32 answer', async () => {
    // Pairs of target points mirrored about x = 0.5 with their x nudged by k ulps, and queries on the mirror plane.
    const target: number[] = []
    const prediction: number[] = []
    let seed = 7
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
    for (let i = 0; i < 60; i++) {
      const y = rand(), z = rand()
      const nudge = [0, 1, 2, 1e3, 1e6, 1e9][i % 6]! * 2 ** -53
      target.push(0.5 - 0.3 - nudge, y, z, 0.5 + 0.3, y, z)
      prediction.push(0.5, y, z, 0.5, y + 0.001, z)
    }
    const stats = await expectSameStarts(Float64Array.from(prediction), Float64Array.from(target))
    expect(stats.fallbacks).toBeGreaterThan(0)
  })

  it('a device that answers indices naming no point costs speed, not bits', async () => {
    const v = readVector('02_global_alignment.json') as { target: Rows[]; cases: { prediction: Rows[] }[] }
    let tick = 0
    // Indices that name no point (negative, out of range, fractional, NaN) are never certified; a real but wrong
    // index is the next test's case.
    const device = new TamperingDevice(new Float32EmulationDevice(), answers => {
      for (let i = 0; i < answers.index.length; i += 7) answers.index[i] = [-1, 1e9, 0.5, Number.NaN, 2 ** 24][tick++ % 5]!
    })
    const stats = await expectSameStarts(flat(v.cases[1]!.prediction.flat()), flat(v.target.flat()), device)
    expect(stats.fallbacks).toBeGreaterThan(stats.queries / 8)
  })

  it('a device that names a wrong (but real) point is refused loudly by the spot check, never certified', async () => {
    const v = readVector('02_global_alignment.json') as { target: Rows[]; cases: { prediction: Rows[] }[] }
    // The swapped-in index has the true nearest point among its "other" points, so the kept `second` breaks the bound.
    const device = new TamperingDevice(new Float32EmulationDevice(), answers => {
      for (let i = 0; i < answers.index.length; i += 3) answers.index[i] = (answers.index[i]! + 1) % 150
    })
    const prediction = flat(v.cases[1]!.prediction.flat()), target = flat(v.target.flat())
    await expect(runStartsLockstep(device, [{ prediction, target, starts: alignmentStarts(prediction, target) }])).rejects.toThrow(/SCORING_GPU_UNTRUSTED|breaks its error bound/)
  })

  it('a device that overstates the second distance (computing over wrong data) is refused by the spot check', async () => {
    const v = readVector('02_global_alignment.json') as { target: Rows[]; cases: { prediction: Rows[] }[] }
    const device = new TamperingDevice(new Float32EmulationDevice(), answers => {
      for (let i = 0; i < answers.second.length; i++) answers.second[i] = answers.second[i]! * 4 + 1
    })
    const prediction = flat(v.cases[1]!.prediction.flat()), target = flat(v.target.flat())
    const run = runStartsLockstep(device, [{ prediction, target, starts: alignmentStarts(prediction, target) }])
    await expect(run).rejects.toMatchObject({ code: 'SCORING_GPU_UNTRUSTED' })
  })

  it('one IcpContext start and the lockstep start agree on a cloud with duplicated points', async () => {
    const base = grid()
    const target = new Float64Array(base.length * 2)
    target.set(base); target.set(base, base.length)
    const prediction = target.map((c, i) => c + (i % 3 === 1 ? 0.01 : 0))
    const starts = alignmentStarts(prediction, target).slice(0, 3)
    const cpu = starts.map(s => new IcpContext(prediction, target).runStart(s))
    const [gpu] = await runStartsLockstep(new Float32EmulationDevice(), [{ prediction, target, starts }])
    expect(floatBits(gpu)).toBe(floatBits(cpu))
  })
})

describe('device self-test', () => {
  it('passes an honest float32 device and reports how much would certify', async () => {
    const share = await selfTestDevice(new Float32EmulationDevice())
    expect(share).toBeGreaterThan(0.9)
  })

  it('refuses a device that reads wrong data (its second distances overstate), naming the renderer', async () => {
    let calls = 0
    const device = new TamperingDevice(new Float32EmulationDevice(), answers => {
      // Like a mis-sized texture: only some answers of the 2000-point cloud go wrong.
      if (calls++ === 2) for (let i = 0; i < answers.second.length; i += 97) answers.second[i] = answers.second[i]! * 3 + 0.1
    })
    await expect(selfTestDevice(device)).rejects.toMatchObject({ code: 'SCORING_GPU_UNTRUSTED', message: expect.stringMatching(/tampering test device.*cannot be trusted/) })
  })
})
