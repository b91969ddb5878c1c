// Every step of a score curve is, bit for bit, the official score of its state alone: the final score
// (scoreFinalEpisode, its own scorer) of the episode exported right after that step's call, on two awb-mini samples;
// the last step is the sample's final score. Covers a part left in place, a changed alignment, a swap in a group, a
// read-only call and a new state with unchanged poses.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readStepScenes, scoreSampleCurve, type SampleCurve } from '../../../src/evaluate/curves/index.ts'
import { createScorer, scoreFinalEpisode, type SampleScorer, type ScoredFields } from '../../../src/evaluate/index.ts'
import { decodeEpisode, encodeEpisode } from '../../../src/episode/index.ts'
import { findSample, loadEvaluation, openPackage, readEpisode, type BenchmarkPackage } from '../../../src/package/index.ts'
import { loadMujoco, WorldRuntime, type BodyPose } from '../../../src/world/index.ts'

const PACKAGE = 'fixtures/awb-mini'

interface ScriptCall { name: string; arguments: Record<string, unknown> }

interface Case {
  block: string
  sampleId: string
  /** Demonstration calls replayed (default: all). */
  take?: number
  /** Calls after those. */
  extra: ScriptCall[]
}

// 1315: 3 parts with one group of two, whose matching swaps them in state 2; then a camera move, a new state with the
// same poses (scored once). 16/16256: 2 parts placed one at a time, then a read-only call that ends in the same state.
const CASES: Case[] = [
  { block: 'assemblybench-manualbook', sampleId: '1315', take: 3, extra: [{ name: 'move_camera', arguments: { yaw: 30 } }] },
  { block: 'fantastic-breaks-none', sampleId: '16/16256', extra: [{ name: 'list_objects', arguments: {} }] },
]

interface Scored {
  curve: SampleCurve
  /** The episode exported after each call of the curve (the last one is the final episode). */
  exports: Uint8Array[]
  /** Part poses per state index, read from the final episode. */
  poses: Map<number, BodyPose[]>
  /** The official score of each state index, from the last export that ends in it. */
  official: Map<number, ScoredFields>
  /** Which export each official score was read from (index into `exports`). */
  officialFrom: Map<number, number>
}

let pkg: BenchmarkPackage
let curveScorer: SampleScorer
let officialScorer: SampleScorer
const scored = new Map<string, Scored>()

/** The IEEE-754 bits of each number (null stays null), so equal means the same float64 values, −0 and +0 apart. */
function bits(values: readonly (number | null)[]): (string | null)[] {
  const view = new DataView(new ArrayBuffer(8))
  return values.map((value) => {
    if (value === null) return null
    view.setFloat64(0, value)
    return view.getBigUint64(0).toString(16)
  })
}

async function scoreCase(one: Case): Promise<Scored> {
  const sample = findSample(pkg, one.block, one.sampleId)
  const demo = await readFile(join('fixtures/demonstrations', one.block, `${sample.slug}.calls.jsonl`), 'utf8')
  const demoCalls = demo.split('\n').filter(line => line.trim() !== '').map(line => JSON.parse(line) as ScriptCall)
  const script = [...demoCalls.slice(0, one.take ?? demoCalls.length), ...one.extra]
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode: await decodeEpisode(await readEpisode(pkg, sample)) })
  const exports: Uint8Array[] = []
  for (const call of script) {
    const result = await runtime.callTool(call.name, call.arguments)
    expect(result, `${call.name} result`).not.toHaveProperty('isError', true)
    exports.push(await encodeEpisode(runtime.exportEpisode()))
  }
  const finalBytes = exports.at(-1)!
  const curve = await scoreSampleCurve({ pkg, sample, finalBytes, finalSource: 'final.episode.zip', scorer: curveScorer })
  const evaluation = await loadEvaluation(pkg, sample)
  const scenes = await readStepScenes({ finalBytes, initialBytes: await readEpisode(pkg, sample), partIds: evaluation.partIds, finalSource: 'final.episode.zip', initialSource: sample.episodePath })
  // The last export of each state, so the last state's official score is the final episode's: the sample's final score.
  const official = new Map<number, ScoredFields>()
  const officialFrom = new Map<number, number>()
  for (let k = curve.steps.length - 1; k >= 0; k--) {
    const state = curve.steps[k]!.state_index
    if (official.has(state)) continue
    official.set(state, await scoreFinalEpisode({ pkg, sample, finalBytes: exports[k]!, finalSource: `after-call-${k}.episode.zip`, scorer: officialScorer }))
    officialFrom.set(state, k)
  }
  return { curve, exports, poses: scenes.poses, official, officialFrom }
}

beforeAll(async () => {
  pkg = await openPackage(PACKAGE)
  curveScorer = createScorer({ workers: 0 })
  officialScorer = createScorer({ workers: 0 })
  for (const one of CASES) scored.set(`${one.block} ${one.sampleId}`, await scoreCase(one))
}, 180_000)

afterAll(async () => {
  await curveScorer?.close()
  await officialScorer?.close()
})

describe.each(CASES)('the curve of $block $sampleId', (one) => {
  const get = () => scored.get(`${one.block} ${one.sampleId}`)!

  it('scores every step as the official final score of the episode exported after its call, bit for bit', () => {
    const { curve, official } = get()
    expect(curve.steps.length).toBeGreaterThanOrEqual(4)
    for (const [k, step] of curve.steps.entries()) {
      const score = official.get(step.state_index)!
      const where = `step ${k} (${step.tool}, state ${step.state_index})`
      expect(score.state_index, where).toBe(step.state_index)
      expect(step.status, where).toBe('scored')
      expect(bits([step.SCD, step.PA, step.SR]), where).toEqual(bits([score.SCD, score.PA, score.SR]))
      const byPart = new Map(score.parts.map(part => [part.part_id, part]))
      expect(step.parts_correct, where).toBe(score.parts.filter(part => part.correct).length)
      const detail = curve.states.find(state => state.state_index === step.state_index)!
      expect(detail.correct, where).toEqual(curve.part_ids.map(id => byPart.get(id)!.correct))
      expect(detail.target_part_ids, where).toEqual(curve.part_ids.map(id => byPart.get(id)!.target_part_id))
      expect(bits(detail.rotation!.flat()), `${where} rotation`).toEqual(bits(score.alignment.rotation.flat()))
      expect(bits(detail.translation!), `${where} translation`).toEqual(bits(score.alignment.translation))
    }
  })

  it('ends on the final score of the sample', () => {
    const { curve, exports, official, officialFrom } = get()
    const last = curve.steps.at(-1)!
    // Read from the export after the last call, which is the final episode the curve was computed from.
    expect(officialFrom.get(last.state_index)).toBe(exports.length - 1)
    const final = official.get(last.state_index)!
    expect(last.state_index).toBe(curve.final_state_index)
    expect(bits([last.SCD, last.PA, last.SR])).toEqual(bits([final.SCD, final.PA, final.SR]))
    expect(curve.episode_sha256).toBe(final.episode_sha256)
  })

  it('has a step that moves one part and leaves another where it was, and a step whose alignment changes', () => {
    const { curve, poses } = get()
    const same = (a: BodyPose, b: BodyPose) => bits([...a.rotation, ...a.position]).join() === bits([...b.rotation, ...b.position]).join()
    const states = [...new Set(curve.steps.map(step => step.state_index))]
    const movesOneKeepsOne = states.slice(1).some((state, i) => {
      const before = poses.get(states[i]!)!, after = poses.get(state)!
      return after.some((pose, p) => !same(pose, before[p]!)) && after.some((pose, p) => same(pose, before[p]!))
    })
    expect(movesOneKeepsOne).toBe(true)
    const rotations = curve.states.map(state => bits(state.rotation!.flat()).join())
    expect(rotations.some((rotation, i) => i > 0 && rotation !== rotations[i - 1])).toBe(true)
  })
})

describe('coverage of the two samples', () => {
  it('includes a state where the group matching swaps two parts', () => {
    const { curve } = scored.get('assemblybench-manualbook 1315')!
    expect(curve.states.some(state => state.target_part_ids.some((target, p) => target !== curve.part_ids[p]))).toBe(true)
  })

  it('scores a new state with the poses of the one before once, yet as its own official score', () => {
    const { curve } = scored.get('assemblybench-manualbook 1315')!
    const [before, camera] = curve.steps.slice(-2)
    expect(camera!.tool).toBe('move_camera')
    expect(camera!.state_index).toBeGreaterThan(before!.state_index)
    expect(curve.cost.states_scored).toBe(new Set(curve.steps.map(step => step.state_index)).size - 1)
  })

  it('gives a read-only call the state of the call before it', () => {
    const { curve } = scored.get('fantastic-breaks-none 16/16256')!
    const [before, read] = curve.steps.slice(-2)
    expect(read!.tool).toBe('list_objects')
    expect(read!.state_index).toBe(before!.state_index)
  })
})
