// Scoring speed: per-sample milliseconds (n, median, p95) for seeded synthetic samples and the six chair poses, 1 and 2 workers.
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { quaternionToMatrix, type SampleInput } from '../src/scoring/index.ts'
import { ScoringPool } from '../src/scoring/workers/index.ts'

const CHAIR_DIR = fileURLToPath(new URL('../../shared/conformance/scoring/11_chair/', import.meta.url))
const POINTS_PER_PART = 1000
const SYNTHETIC_SAMPLES = 2

function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function unitQuaternion(rng: () => number): number[] {
  const q = [rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5]
  const n = Math.hypot(...q)
  return q.map(x => x / n)
}

/** n box-shaped parts on a grid; `displaced` moves one part by 0.15 and turns another. */
function synthetic(parts: number, seed: number, displaced: boolean): SampleInput {
  const rng = seeded(seed)
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

function chair(pose: string): SampleInput {
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

function stats(ms: number[]): { n: number; median: number; p95: number } {
  const s = [...ms].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
  return { n: s.length, median: Math.round(at(0.5)), p95: Math.round(at(0.95)) }
}

const suites: { name: string; inputs: SampleInput[] }[] = [
  ...[2, 6, 12, 18].map(parts => ({
    name: `synthetic-${parts}`,
    inputs: Array.from({ length: SYNTHETIC_SAMPLES }, (_, k) => synthetic(parts, 100 * parts + k, k % 2 === 1)),
  })),
  { name: 'chair', inputs: ['perfect', 'rigid', 'swapped', 'displaced', 'displaced_small', 'unassembled'].map(chair) },
]

const rows: { suite: string; workers: number; n: number; median: number; p95: number }[] = []
for (const workers of [1, 2]) {
  const pool = new ScoringPool({ workers })
  for (const suite of suites) {
    const ms: number[] = []
    for (const input of suite.inputs) {
      const t0 = performance.now()
      await pool.scoreSample(input, { pointsPerPart: POINTS_PER_PART })
      ms.push(performance.now() - t0)
    }
    const s = stats(ms)
    rows.push({ suite: suite.name, workers, ...s })
    process.stderr.write(`${suite.name} workers=${workers} median=${s.median} ms\n`)
  }
  await pool.close()
}
const machine = { cpus: availableParallelism(), node: process.version, platform: `${process.platform}-${process.arch}` }
console.log(`machine: ${machine.cpus} CPUs, Node ${machine.node}, ${machine.platform}`)
console.log('suite            workers   n   median ms   p95 ms')
for (const r of rows) console.log(`${r.suite.padEnd(16)} ${String(r.workers).padStart(7)} ${String(r.n).padStart(3)} ${String(r.median).padStart(11)} ${String(r.p95).padStart(8)}`)
console.log(JSON.stringify({ bench: 'scoring', machine, rows }))
