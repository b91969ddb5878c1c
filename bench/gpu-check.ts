// GPU check: exactness of the gpu backend against the CPU backend, then chair / 18-part / per-step-curve timings of
// both side by side (table + one JSON line). On a software renderer (--software, or no GPU) the clouds are thinned so
// the run stays short: those figures show the software path, not a GPU.
// Usage: tsx bench/gpu-check.ts [--software] [--points <per part>]
import { availableParallelism, cpus } from 'node:os'
import type { SampleInput, SampleScore } from '../src/scoring/index.ts'
import { ScoringPool } from '../src/scoring/workers/index.ts'
import {
  PageNearestDevice, classifyRenderer, selfTestDevice, decideBackend, emptyLockstepStats, hasGpuDeviceNode, scoreSamplesOnDevice,
  type NearestDevice,
} from '../src/scoring/gpu/index.ts'
import { floatBits } from '../test/helpers/float-bits.ts'
import { chairSample, syntheticSample } from './samples.ts'

/** Points per part on a software renderer (brute force on the CPU's rasterizer: 1000 would take hours). */
const SOFTWARE_POINTS_PER_PART = 30

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}
const isSoftwareForced = process.argv.includes('--software')

/** The first `points` points of every part (same poses), for the software path. */
function thin(input: SampleInput, points: number): SampleInput {
  return { ...input, clouds: input.clouds.map(c => Float64Array.from(Array.prototype.slice.call(c, 0, 3 * points) as number[])) }
}

const log = (line: string) => process.stderr.write(`${line}\n`)

const pool = new ScoringPool()
const auto = await decideBackend({ choice: 'auto', cpuScore: input => pool.scoreSample(input) })
await auto.device?.close()
log(`auto decision: ${auto.decision.backend} (${auto.decision.reason})`)

let device: NearestDevice
if (isSoftwareForced || !hasGpuDeviceNode()) device = await PageNearestDevice.open()
else device = (await decideBackend({ choice: 'gpu', cpuScore: input => pool.scoreSample(input) })).device!
const kind = classifyRenderer(device.renderer, device.mode)
log(`gpu self-test: passed (${Math.round(100 * await selfTestDevice(device))} % of its answers certify)`)
log(`gpu page renderer: ${device.renderer} (${kind}, gpu.js mode ${device.mode})`)
const points = Number(flag('--points') ?? (kind === 'hardware' ? 1000 : SOFTWARE_POINTS_PER_PART))
if (!Number.isInteger(points) || points < 4 || points > 1000) throw new Error(`--points: expected a whole number from 4 to 1000, got ${flag('--points')}`)
const prepare = (input: SampleInput) => (points === 1000 ? input : thin(input, points))

const workloads: { name: string; steps: SampleInput[] }[] = [
  { name: 'chair/perfect', steps: [prepare(chairSample('perfect'))] },
  { name: 'chair/displaced', steps: [prepare(chairSample('displaced'))] },
  { name: '18-part (displaced)', steps: [prepare(syntheticSample(18, 1801, true))] },
  { name: 'curve: chair, 4 steps', steps: ['unassembled', 'displaced', 'displaced_small', 'perfect'].map(p => prepare(chairSample(p))) },
]

interface Row { workload: string; points: number; steps: number; cpuMs: number; gpuMs: number; isIdentical: boolean; rounds: number; certifiedPct: number }
const rows: Row[] = []
// Untimed warm-up of both (workers, kernel compilation).
await pool.scoreSample(prepare(chairSample('perfect')))
await scoreSamplesOnDevice(device, [thin(chairSample('perfect'), 8)])
for (const w of workloads) {
  let clock = performance.now()
  const cpu: SampleScore[] = []
  for (const step of w.steps) cpu.push(await pool.scoreSample(step))
  const cpuMs = performance.now() - clock
  const stats = emptyLockstepStats()
  clock = performance.now()
  const outcomes = await scoreSamplesOnDevice(device, w.steps, {}, stats)
  const gpuMs = performance.now() - clock
  const gpu = outcomes.map(o => ('score' in o ? o.score : o.error))
  const row = {
    workload: w.name, points: w.steps[0]!.clouds.length * points, steps: w.steps.length, cpuMs: Math.round(cpuMs), gpuMs: Math.round(gpuMs),
    isIdentical: floatBits(gpu) === floatBits(cpu), rounds: stats.rounds, certifiedPct: Math.round(1000 * stats.certified / Math.max(1, stats.queries)) / 10,
  }
  rows.push(row)
  log(`${row.workload}: cpu ${row.cpuMs} ms, gpu ${row.gpuMs} ms, identical ${row.isIdentical}`)
}
await device.close()
await pool.close()

const machine = `${cpus()[0]?.model ?? 'cpu'} ×${availableParallelism()}; gpu page: ${device.renderer}`
console.log(`\nGPU check (${kind} renderer${points === 1000 ? '' : `, clouds thinned to ${points} points per part`}) on ${machine}`)
console.log('| workload | points | steps | cpu ms | gpu ms | gpu/cpu | bit-identical | device rounds | certified % |')
console.log('|---|---:|---:|---:|---:|---:|---|---:|---:|')
for (const r of rows) console.log(`| ${r.workload} | ${r.points} | ${r.steps} | ${r.cpuMs} | ${r.gpuMs} | ${(r.gpuMs / Math.max(1, r.cpuMs)).toFixed(1)}× | ${r.isIdentical ? 'yes' : 'NO'} | ${r.rounds} | ${r.certifiedPct} |`)
console.log(JSON.stringify({ bench: 'gpu-check', renderer: device.renderer, kind, pointsPerPart: points, auto: auto.decision, rows }))
if (rows.some(r => !r.isIdentical)) {
  console.error('gpu-check: the GPU backend differs from the CPU backend: a bug, please report it')
  process.exitCode = 1
}
