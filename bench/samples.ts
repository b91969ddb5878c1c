// Bench inputs: seeded synthetic n-part samples and the six chair poses of conformance 11; no scoring, no timing.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { quaternionToMatrix, type SampleInput } from '../src/scoring/index.ts'
import { mulberry32 } from '../src/shared/mulberry32.ts'

const CHAIR_DIR = fileURLToPath(new URL('../test/fixtures/conformance/scoring/11_chair/', import.meta.url))
/** Points per part in every bench sample (evaluation.json requires 1000). */
export const POINTS_PER_PART = 1000
/** The six chair pose files, in the order the bench reports them. */
export const CHAIR_POSES = ['perfect', 'rigid', 'swapped', 'displaced', 'displaced_small', 'unassembled'] as const


function unitQuaternion(rng: () => number): number[] {
  const q = [rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5]
  const n = Math.hypot(...q)
  return q.map(x => x / n)
}

/** n box-shaped parts on a grid; `displaced` moves one part by 0.15 and turns another. */
export function syntheticSample(parts: number, seed: number, displaced: boolean): SampleInput {
  const rng = mulberry32(seed)
  const partIds = Array.from({ length: parts }, (_, i) => `part-${String(i).padStart(2, '0')}`)
  const clouds = partIds.map(() => {
    const size = [0.1 + 0.4 * rng(), 0.05 + 0.2 * rng(), 0.02 + 0.1 * rng()]
    const out = new Float64Array(3 * POINTS_PER_PART)
    for (let i = 0; i < POINTS_PER_PART; i++) {
      const face = Math.floor(rng() * 6), axis = face % 3
      for (let k = 0; k < 3; k++) out[3 * i + k] = (rng() - 0.5) * size[k]!
      out[3 * i + axis] = (face < 3 ? -0.5 : 0.5) * size[axis]!
    }
    return out
  })
  const gtPoses = partIds.map((_, i) => [(i % 3) * 0.4, Math.floor(i / 3) * 0.3, rng() * 0.2, ...unitQuaternion(rng)])
  const finalPoses = gtPoses.map((gt, i) => {
    const rotation = quaternionToMatrix(new Float64Array(9), displaced && i === 1 ? unitQuaternion(rng) : gt, displaced && i === 1 ? 0 : 3)
    return { rotation, position: [gt[0]! + (displaced && i === 0 ? 0.15 : 0), gt[1]!, gt[2]!] }
  })
  return { partIds, clouds, gtPoses, finalPoses, groups: partIds.map(id => [id]), scaleDivisor: 1 }
}

/** The bench's synthetic samples for one part count: `count` seeded samples, every second one displaced. */
export function syntheticSamples(parts: number, count: number): SampleInput[] {
  return Array.from({ length: count }, (_, k) => syntheticSample(parts, 100 * parts + k, k % 2 === 1))
}

/** The chair of conformance 11 in one of its pose files. */
export function chairSample(pose: string): SampleInput {
  const read = (name: string): unknown => JSON.parse(readFileSync(CHAIR_DIR + name, 'utf8'))
  const ev = read('evaluation.json') as { part_ids: string[]; points: Record<string, number[][]>; gt_poses: Record<string, number[]>; scale_divisor: number; equivalence: { groups: string[][] } }
  const poses = read(`poses/${pose}.json`) as Record<string, { position: number[]; quaternion: number[] }>
  const ids = ev.part_ids
  return {
    partIds: ids,
    clouds: ids.map(id => Float64Array.from(ev.points[id]!.flat())),
    gtPoses: ids.map(id => ev.gt_poses[id]!),
    finalPoses: ids.map(id => ({ rotation: quaternionToMatrix(new Float64Array(9), poses[id]!.quaternion), position: poses[id]!.position })),
    groups: ev.equivalence.groups,
    scaleDivisor: ev.scale_divisor,
  }
}
