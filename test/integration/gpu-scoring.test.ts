// The gpu backend's real code path (gpu.js in its own headless Chromium page) on this machine's software renderer
// (SwiftShader): bit-identical to the CPU backend, and `auto` refuses a software GPU. SwiftShader runs the float32
// brute force at ~10 M pairs/s here, so the 1000-point-per-part samples run selected starts (every start where the
// clouds are small); bench/gpu-check.sh covers whole samples.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { alignmentStarts, planSample, quaternionToMatrix, runStarts, scoreSample, type SampleInput } from '../../src/scoring/index.ts'
import { ScoringPool } from '../../src/scoring/workers/index.ts'
import { decideBackend, selfTestDevice, emptyLockstepStats, runStartsLockstep, scoreSamplesOnDevice } from '../../src/scoring/gpu/index.ts'
import { openPageDevice, type PageNearestDevice } from '../../src/headless/index.ts'
import { createScorer, GPU_SAMPLES_AT_ONCE } from '../../src/evaluate/index.ts'
import type { AlignmentStart } from '../../src/scoring/index.ts'
import { floatBits } from '../helpers/float-bits.ts'
import { flat, readVector, sampleFromEvaluation, type EvaluationLike, type PosesFile } from '../unit/scoring/load-conformance.ts'

type Rows = number[][]
const q = (w: number[]) => quaternionToMatrix(new Float64Array(9), w)
const AWB_MINI = fileURLToPath(new URL('../../fixtures/awb-mini/', import.meta.url))
const CHAIR = fileURLToPath(new URL('../fixtures/conformance/scoring/11_chair/', import.meta.url))
/**
 * Two of the awb-mini samples small enough for SwiftShader in a test (the 2-part ones); part 0 is moved off its GT pose.
 * The other two cost the suite 12 CPU-seconds more and try nothing else; bench/gpu-check.sh runs whole samples.
 */
const AWB_MINI_SMALL = [
  'fantastic-breaks-none/fantastic-breaks/prep-v1-s0-i0-eff1f415ff36/cache/15--15505',
  'fantastic-breaks-none/fantastic-breaks/prep-v1-s0-i0-eff1f415ff36/cache/17--17461',
]

/** Limit of the tests that brute-force thousands of points on SwiftShader (a busy 2-core machine varies ~3× in speed). */
const SWIFTSHADER_TIMEOUT_MS = 180_000

let device: PageNearestDevice

beforeAll(async () => {
  device = await openPageDevice()
}, 120_000)

afterAll(async () => {
  await device?.close()
})

/** Runs `starts` on the page and on the CPU; both must give the same bits. */
async function expectSameStarts(prediction: Float64Array, target: Float64Array, starts: readonly AlignmentStart[]) {
  const stats = emptyLockstepStats()
  const [gpu] = await runStartsLockstep(device, [{ prediction, target, starts }], stats)
  expect(floatBits(gpu)).toBe(floatBits(runStarts(prediction, target, starts)))
  expect(stats.certified).toBeGreaterThan(0)
  return stats
}

/** An awb-mini evaluation.json with every part at its GT pose, then part 0 moved by 0.02 and turned 0.1 rad about z. */
function awbMiniSample(dir: string): SampleInput {
  const ev = JSON.parse(readFileSync(`${AWB_MINI}${dir}/evaluation.json`, 'utf8')) as EvaluationLike & { gt_poses: Record<string, number[]> }
  const poses: PosesFile = {}
  ev.part_ids.forEach((id, i) => {
    const gt = ev.gt_poses[id]!
    const [w, x, y, z] = [gt[3]!, gt[4]!, gt[5]!, gt[6]!]
    // q · (cos 0.05, 0, 0, sin 0.05) for part 0: a 0.1 rad turn; its position shifted in x.
    const c = Math.cos(0.05), s = Math.sin(0.05)
    poses[id] = i === 0
      ? { position: [gt[0]! + 0.02, gt[1]!, gt[2]!], quaternion: [w * c - z * s, x * c + y * s, y * c - x * s, z * c + w * s] }
      : { position: [gt[0]!, gt[1]!, gt[2]!], quaternion: [w, x, y, z] }
  })
  return sampleFromEvaluation(ev, poses, q)
}

describe('gpu backend on the software renderer (real gpu.js page)', () => {
  it('reports a software renderer and passes the self-test (every answer within the error model)', async () => {
    expect(device.renderer).toMatch(/SwiftShader/i)
    expect(await selfTestDevice(device)).toBeGreaterThan(0.9)
  })

  const v02 = readVector('02_global_alignment.json') as { target: Rows[]; cases: { prediction: Rows[] }[] }
  v02.cases.forEach((c, index) => {
    it(`02 global alignment case ${index}: all 24 starts bit-identical`, async () => {
      const prediction = flat(c.prediction.flat()), target = flat(v02.target.flat())
      await expectSameStarts(prediction, target, alignmentStarts(prediction, target))
    })
  })

  const v04 = readVector('04_no_scale_no_reflection.json') as { target: Rows; cases: { label: string; prediction: Rows }[] }
  v04.cases.forEach(c => {
    it(`04 ${c.label}: all 24 starts bit-identical`, async () => {
      const prediction = flat(c.prediction), target = flat(v04.target)
      await expectSameStarts(prediction, target, alignmentStarts(prediction, target))
    })
  })

  it('05 relative orientation: all 24 starts bit-identical', async () => {
    const v = readVector('05_relative_orientation.json') as { target: Rows[]; prediction: Rows[] }
    const prediction = flat(v.prediction.flat()), target = flat(v.target.flat())
    await expectSameStarts(prediction, target, alignmentStarts(prediction, target))
  })

  it('06 bench fixture (1000 points): the winning pose start and pca-3 bit-identical', async () => {
    const v = readVector('06_bench_fixture.json') as { evaluation: EvaluationLike; final_poses: PosesFile }
    const { prepared, starts } = planSample(sampleFromEvaluation(v.evaluation, v.final_poses, q), { pointsPerPart: 1000 })
    await expectSameStarts(prepared.prediction, prepared.target, starts.filter(s => s.name === 'pca-3' || s.name === 'part-0'))
  })

  // The two chair poses whose winning start converges in one iteration (the others need 7–76 rounds of 2–10 s each).
  it.each([['perfect', 'pca-3'], ['rigid', 'part-2']])('11 chair (6000 points), %s pose: its winning start %s bit-identical', async (pose, seed) => {
    const ev = JSON.parse(readFileSync(`${CHAIR}evaluation.json`, 'utf8')) as EvaluationLike
    const poses = JSON.parse(readFileSync(`${CHAIR}poses/${pose}.json`, 'utf8')) as PosesFile
    const { prepared, starts } = planSample(sampleFromEvaluation(ev, poses, q))
    await expectSameStarts(prepared.prediction, prepared.target, starts.filter(s => s.name === seed))
  }, SWIFTSHADER_TIMEOUT_MS)

  it.each(AWB_MINI_SMALL)('awb-mini %s, one part moved: the part-0 start bit-identical', async dir => {
    const { prepared, starts } = planSample(awbMiniSample(dir), { pointsPerPart: 1000 })
    await expectSameStarts(prepared.prediction, prepared.target, starts.filter(s => s.name === 'part-0'))
  }, SWIFTSHADER_TIMEOUT_MS)

  it('a whole thinned awb-mini row (every start, matching, metrics) and a batched second one are bit-identical', async () => {
    const thin = (input: SampleInput): SampleInput => ({ ...input, clouds: input.clouds.map(c => Float64Array.from(Array.prototype.slice.call(c, 0, 60) as number[])) })
    const inputs = [thin(awbMiniSample(AWB_MINI_SMALL[0]!)), thin(awbMiniSample(AWB_MINI_SMALL[1]!))]
    const outcomes = await scoreSamplesOnDevice(device, inputs)
    expect(floatBits(outcomes)).toBe(floatBits(inputs.map(input => ({ score: scoreSample(input) }))))
  })
})

describe('backend choice', () => {
  it('auto refuses a software GPU even on a machine with a GPU device node, and says why', async () => {
    const pool = new ScoringPool({ workers: 0 })
    const { decision, device: chosen } = await decideBackend({ choice: 'auto', hasGpuDeviceNode: () => true, cpuScore: input => pool.scoreSample(input), openDevice: extraArgs => openPageDevice({ extraArgs }) })
    await pool.close()
    expect(chosen).toBeUndefined()
    expect(decision).toMatchObject({ backend: 'cpu', rendererKind: 'software', calibration: null })
    // Both hardware flag sets end on a CPU rasterizer here (SwiftShader for Vulkan, Mesa llvmpipe for EGL).
    expect(decision.reason).toMatch(/(SwiftShader|llvmpipe).*software rasterizer/)
  })

  it('auto on this machine (no GPU device node) picks cpu without opening a browser', async () => {
    const pool = new ScoringPool({ workers: 0 })
    let opened = 0
    const { decision } = await decideBackend({ choice: 'auto', cpuScore: input => pool.scoreSample(input), openDevice: async () => { opened++; throw new Error('unexpected') } })
    await pool.close()
    expect([decision.backend, opened]).toEqual(['cpu', 0])
  })

  it('--backend gpu scores on the page and the row names it: gpu-gpujs:software, same bits as cpu', async () => {
    const v = readVector('02_global_alignment.json') as { target: Rows[]; cases: { prediction: Rows[] }[] }
    // Three one-point-cloud parts would be degenerate: a synthetic 2-part sample from the 02 target instead.
    const cloud = flat(v.target[0]!)
    const input: SampleInput = {
      partIds: ['a', 'b'], clouds: [cloud, flat(v.target[1]!)], gtPoses: [[0, 0, 0, 1, 0, 0, 0], [0.5, 0, 0, 1, 0, 0, 0]],
      finalPoses: [{ rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], position: [0.01, 0, 0] }, { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], position: [0.5, 0.02, 0] }],
      groups: [['a'], ['b']], scaleDivisor: 1,
    }
    const gpu = createScorer({ backend: 'gpu', workers: 0 })
    const cpu = createScorer({ backend: 'cpu', workers: 0 })
    try {
      // The production scorer requires 1000 points per part: this 50-point sample is an error row on both, alike.
      await expect(gpu.score(input)).rejects.toThrow(/exactly 1000 points/)
      await expect(cpu.score(input)).rejects.toThrow(/exactly 1000 points/)
      expect([gpu.backend, cpu.backend]).toEqual(['gpu-gpujs:software', 'cpu-cells'])
      // `awb eval` hands a GPU scorer a batch of samples at once, a CPU scorer one (its pool already uses every core).
      expect([gpu.samplesAtOnce, cpu.samplesAtOnce]).toEqual([GPU_SAMPLES_AT_ONCE, 1])
      expect(gpu.decision).toMatchObject({ choice: 'gpu', backend: 'gpu', rendererKind: 'software' })
      const outcomes = await scoreSamplesOnDevice(device, [input])
      expect(floatBits(outcomes)).toBe(floatBits([{ score: scoreSample(input) }]))
    } finally {
      await gpu.close()
      await cpu.close()
    }
  })

  it('a bad AWB_SCORING_BACKEND is a clear error', async () => {
    const { settingFromEnv } = await import('../../src/settings/index.ts')
    expect(() => settingFromEnv('AWB_SCORING_BACKEND', { AWB_SCORING_BACKEND: 'cuda' })).toThrow(/AWB_SCORING_BACKEND="cuda": expected one of auto, cpu, gpu/)
    expect(settingFromEnv('AWB_SCORING_BACKEND', {})).toBeUndefined()
  })
})
