// Per-step score curves on a scripted awb-mini sample whose every point is known: each step equals the official
// scorer on poses built from the call arguments (not from MuJoCo), the last step equals the official final score.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScorer, scoreFinalEpisode, type SampleScorer } from '../../../src/evaluate/index.ts'
import { curveFigures, scoreSampleCurve, type SampleCurve } from '../../../src/evaluate/curves/index.ts'
import { decodeEpisode, encodeEpisode, readBenchmarkPoses } from '../../../src/episode/index.ts'
import { findSample, loadEvaluation, openPackage, readEpisode, type BenchmarkPackage, type PackageSample } from '../../../src/package/index.ts'
import { quaternionToMatrix } from '../../../src/scoring/index.ts'
import { loadMujoco, WorldRuntime } from '../../../src/world/index.ts'

const PACKAGE = 'fixtures/awb-mini'
const BLOCK = 'fantastic-breaks-none'
const SAMPLE = '16/16256'

interface ScriptCall { name: string; arguments: Record<string, unknown> }

let pkg: BenchmarkPackage
let sample: PackageSample
let scorer: SampleScorer
let script: ScriptCall[]
let finalBytes: Uint8Array
let curve: SampleCurve

beforeAll(async () => {
  pkg = await openPackage(PACKAGE)
  sample = findSample(pkg, BLOCK, SAMPLE)
  scorer = createScorer({ workers: 0 })
  const demo = await readFile(join('fixtures/demonstrations', BLOCK, `${sample.slug}.calls.jsonl`), 'utf8')
  const initial = await decodeEpisode(await readEpisode(pkg, sample))
  // qpos of part 1: position at 1..3, quaternion (wxyz) at 4..7 of the integration row (scoring.md §3.3).
  const start = initial.initial.integration
  // The demonstration places one part per call; then the script puts part 1 back where it started and looks again.
  script = [
    ...demo.split('\n').filter(line => line.trim() !== '').map(line => JSON.parse(line) as ScriptCall),
    { name: 'set_object_pose', arguments: { id: 'part-0001', position: Array.from(start.subarray(1, 4)), quaternion: Array.from(start.subarray(4, 8)) } },
    { name: 'list_objects', arguments: {} },
    { name: 'move_camera', arguments: { yaw: 30 } },
  ]
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode: initial })
  for (const call of script) {
    const result = await runtime.callTool(call.name, call.arguments)
    expect(result, `${call.name} result`).not.toHaveProperty('isError', true)
  }
  finalBytes = await encodeEpisode(runtime.exportEpisode())
  curve = await scoreSampleCurve({ pkg, sample, finalBytes, finalSource: 'scripted.episode.zip', scorer })
}, 120_000)

afterAll(async () => {
  await scorer?.close()
})

/** The poses after each scripted call, built from the call arguments and the initial state only. */
async function expectedPoses(): Promise<{ rotation: Float64Array; position: Float64Array }[][]> {
  const initial = await decodeEpisode(await readEpisode(pkg, sample))
  const start = readBenchmarkPoses(initial.initial.integration, sample.parts)
  let poses = Array.from({ length: sample.parts }, (_, i) => ({
    rotation: start.rotations.slice(9 * i, 9 * i + 9),
    position: start.positions.slice(3 * i, 3 * i + 3),
  }))
  const out: typeof poses[] = []
  for (const call of script) {
    poses = poses.map(pose => ({ rotation: pose.rotation.slice(), position: pose.position.slice() }))
    if (call.name === 'set_object_pose') {
      const i = Number(String(call.arguments.id).slice('part-'.length)) - 1
      poses[i]!.position.set(call.arguments.position as number[])
      quaternionToMatrix(poses[i]!.rotation, call.arguments.quaternion as number[], 0, 'scripted quaternion')
    }
    out.push(poses)
  }
  return out
}

describe('scoreSampleCurve', () => {
  it('has one step per recorded call, with its tool, call index and state', () => {
    expect(curve.steps.map(step => [step.call_index, step.tool, step.state_index])).toEqual([
      [0, 'get_scene', 0], [1, 'set_object_pose', 1], [2, 'set_object_pose', 2], [3, 'set_object_pose', 3], [4, 'list_objects', 3], [5, 'move_camera', 4],
    ])
    expect(curve.steps.every(step => step.status === 'scored' && step.parts_total === 2)).toBe(true)
    // Four scored states: list_objects ends in the state before it, move_camera in a new state with the same poses.
    expect(curve.cost.states_scored).toBe(4)
    expect(curve.states.map(state => state.state_index)).toEqual([0, 1, 2, 3, 4])
    expect(curve.states[4]!.correct).toEqual(curve.states[3]!.correct)
    expect(curve.steps[0]!.elapsed_seconds).toBe(0)
    expect(curve.steps.map(step => step.elapsed_seconds)).toEqual([...curve.steps.map(step => step.elapsed_seconds)].sort((a, b) => a - b))
  })

  it('scores every point as the official scorer does on the scripted poses', async () => {
    const evaluation = await loadEvaluation(pkg, sample)
    const expected = await expectedPoses()
    for (const [k, poses] of expected.entries()) {
      const score = await scorer.score({ partIds: evaluation.partIds, clouds: evaluation.points, gtPoses: evaluation.gtPoses, finalPoses: poses, groups: evaluation.groups, scaleDivisor: evaluation.scaleDivisor })
      const step = curve.steps[k]!
      expect([step.SR, step.PA, step.parts_correct], `step ${k} (${step.tool})`).toEqual([score.SR, score.PA, score.parts.filter(p => p.correct).length])
      // MuJoCo's xmat and our quaternion matrix may differ in the last bit; the chamfer follows them.
      expect(step.SCD, `SCD of step ${k}`).toBeCloseTo(score.SCD, 12)
    }
  })

  it('reaches SR 1 when both parts are placed, then loses it to the undo', () => {
    expect(curve.steps.map(step => step.SR)).toEqual([0, 0, 1, 0, 0, 0])
    expect(curve.figures).toMatchObject({ steps: 6, best_SR: 1, best_PA: 1, best_call_index: 2, first_SR1_call_index: 2, steps_after_best: 3, final_SR: 0, regressed: true })
  })

  it('ends on the official final score exactly', async () => {
    const official = await scoreFinalEpisode({ pkg, sample, finalBytes, finalSource: 'scripted.episode.zip', scorer })
    const last = curve.steps.at(-1)!
    expect([last.SR, last.PA, last.SCD, last.state_index]).toEqual([official.SR, official.PA, official.SCD, official.state_index])
    expect(last.parts_correct).toBe(official.parts.filter(p => p.correct).length)
  })
})

describe('curveFigures', () => {
  const step = (call_index: number, SR: number, PA: number, SCD: number | null) => ({ call_index, SR, PA, SCD })

  it('prefers SR, then PA, then the lower SCD, and keeps the first of equal states', () => {
    const figures = curveFigures([step(0, 0, 0.5, 2), step(1, 0, 0.5, 1), step(2, 0, 0.5, 1), step(3, 0, 0.25, 0.1)])
    expect(figures).toMatchObject({ best_call_index: 1, best_SCD: 1, steps_after_best: 2, first_SR1_call_index: null, regressed: true })
  })

  it('treats an unscorable state as the worst and an empty curve as null figures', () => {
    expect(curveFigures([step(0, 0, 0, null), step(1, 0, 0, 5)])).toMatchObject({ best_call_index: 1, regressed: false, steps_after_best: 0 })
    expect(curveFigures([])).toMatchObject({ steps: 0, best_SR: null, final_SR: null, steps_after_best: null, regressed: false })
  })
})
