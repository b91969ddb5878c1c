// GPU check: exactness of the gpu backend against the CPU backend, then chair / 18-part / per-step-curve / awb-mini timings of
// both side by side (table + one JSON line). On a software renderer (--software, or no GPU) the clouds are thinned so
// the run stays short: those figures show the software path, not a GPU.
// Usage: tsx bench/gpu-check.ts [--software] [--points <per part>] [--budget-s <seconds for the timed part, default 200>]
import { availableParallelism, cpus } from 'node:os'
import type { SampleInput, SampleScore } from '../src/scoring/index.ts'
import { ScoringPool } from '../src/scoring/workers/index.ts'
import {
  classifyRenderer, selfTestDevice, decideBackend, emptyLockstepStats, hasGpuDeviceNode, scoreSamplesOnDevice,
  type NearestDevice, type OpenNearestDevice,
} from '../src/scoring/gpu/index.ts'
import { openPageDevice } from '../src/headless/index.ts'
import { floatBits } from '../test/helpers/float-bits.ts'
import { awbMiniRows } from './awb-mini-poses.ts'
import { chairSample, syntheticSample } from './samples.ts'

/** Points per part on a software renderer (brute force on the CPU's rasterizer: 1000 would take hours). */
const SOFTWARE_POINTS_PER_PART = 30

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}
const isSoftwareForced = process.argv.includes('--software')

/** The first `perPart` points of every part (same poses); the input itself at 1000. */
function thin(input: SampleInput, perPart: number): SampleInput {
  if (perPart >= 1000) return input
  return { ...input, clouds: input.clouds.map(c => Float64Array.from(Array.prototype.slice.call(c, 0, 3 * perPart) as number[])) }
}

const log = (line: string) => process.stderr.write(`${line}\n`)

const pool = new ScoringPool()
const openDevice: OpenNearestDevice = extraArgs => openPageDevice({ extraArgs })
const auto = await decideBackend({ choice: 'auto', cpuScore: input => pool.scoreSample(input), openDevice })
await auto.device?.close()
log(`auto decision: ${auto.decision.backend} (${auto.decision.reason})`)

let device: NearestDevice
if (isSoftwareForced || !hasGpuDeviceNode()) device = await openPageDevice()
else device = (await decideBackend({ choice: 'gpu', cpuScore: input => pool.scoreSample(input), openDevice })).device!
const kind = classifyRenderer(device.renderer, device.mode)
log(`gpu self-test: passed (${Math.round(100 * await selfTestDevice(device))} % of its answers certify)`)
log(`gpu page renderer: ${device.renderer} (${kind}, gpu.js mode ${device.mode})`)
const points = Number(flag('--points') ?? (kind === 'hardware' ? 1000 : SOFTWARE_POINTS_PER_PART))
if (!Number.isInteger(points) || points < 4 || points > 1000) throw new Error(`--points: expected a whole number from 4 to 1000, got ${flag('--points')}`)

/** The workloads, cheapest first; each is built at a given number of points per part. */
const workloads: { name: string; build: (perPart: number) => SampleInput[] }[] = [
  { name: 'chair/perfect', build: p => [thin(chairSample('perfect'), p)] },
  { name: 'chair/displaced', build: p => [thin(chairSample('displaced'), p)] },
  { name: 'curve: chair, 4 steps', build: p => ['unassembled', 'displaced', 'displaced_small', 'perfect'].map(pose => thin(chairSample(pose), p)) },
  { name: '18-part (displaced)', build: p => [thin(syntheticSample(18, 1801, true), p)] },
  // Real benchmark rows: every bundled sample as a finished agent leaves it, in one batch as `awb eval` hands them over.
  { name: 'awb-mini: every sample, near-perfect', build: p => awbMiniRows().map(row => thin(row.build('near-perfect'), p)) },
]
/** Device rounds assumed when predicting a workload's GPU time (ICP's cap is 100 iterations, plus the start). */
const PREDICTED_ROUNDS = 101
const budgetMs = 1000 * Number(flag('--budget-s') ?? 200)
if (!(budgetMs > 0)) throw new Error(`--budget-s: expected seconds > 0, got ${flag('--budget-s')}`)
const started = performance.now()

interface Row { workload: string; points: number; steps: number; cpuMs: number; gpuMs: number; isIdentical: boolean; rounds: number; certifiedPct: number; mpairsPerS: number }
const rows: Row[] = []
// Untimed warm-up of both (workers, kernel compilation).
await pool.scoreSample(thin(chairSample('perfect'), Math.min(points, 100)))
await scoreSamplesOnDevice(device, [thin(chairSample('perfect'), 8)])
let pairsSoFar = 0, deviceMsSoFar = 0
for (const w of workloads) {
  // Keep the whole check inside the budget: predict this workload's GPU time from the throughput so far and thin
  // its clouds (N² work per round) until it fits what is left.
  let perPart = points
  const left = budgetMs - (performance.now() - started)
  if (left <= 0) { log(`${w.name}: skipped (time budget spent)`); continue }
  if (deviceMsSoFar > 0) {
    const sample = w.build(perPart)
    const pairs = PREDICTED_ROUNDS * sample.reduce((sum, step) => sum + 2 * (24 + step.partIds.length) * (step.partIds.length * perPart) ** 2, 0)
    const predictedMs = pairs / (pairsSoFar / deviceMsSoFar)
    if (predictedMs > left) perPart = Math.max(8, Math.floor(perPart * Math.sqrt(left / predictedMs)))
  }
  const steps = w.build(perPart)
  let clock = performance.now()
  const cpu: SampleScore[] = []
  for (const step of steps) cpu.push(await pool.scoreSample(step))
  const cpuMs = performance.now() - clock
  const stats = emptyLockstepStats()
  clock = performance.now()
  const outcomes = await scoreSamplesOnDevice(device, steps, {}, stats)
  const gpuMs = performance.now() - clock
  pairsSoFar += stats.pairs
  deviceMsSoFar += stats.deviceMs
  const gpu = outcomes.map(o => ('score' in o ? o.score : o.error))
  const row = {
    workload: w.name, points: Math.round(perPart * steps.reduce((sum, step) => sum + step.partIds.length, 0) / steps.length), steps: steps.length, cpuMs: Math.round(cpuMs), gpuMs: Math.round(gpuMs),
    isIdentical: floatBits(gpu) === floatBits(cpu), rounds: stats.rounds, certifiedPct: Math.round(1000 * stats.certified / Math.max(1, stats.queries)) / 10,
    mpairsPerS: Math.round(stats.pairs / Math.max(1, stats.deviceMs) / 1e2) / 10,
  }
  rows.push(row)
  log(`${row.workload} (${row.points} points): cpu ${row.cpuMs} ms, gpu ${row.gpuMs} ms, identical ${row.isIdentical}`)
}
await device.close()
await pool.close()

const machine = `${cpus()[0]?.model ?? 'cpu'} ×${availableParallelism()}; gpu page: ${device.renderer}`
console.log(`\nGPU check (${kind} renderer; at most ${points} points per part, fewer where the ${budgetMs / 1000} s budget required) on ${machine}`)
console.log('| workload | points/step | steps | cpu ms | gpu ms | gpu/cpu | bit-identical | device rounds | certified % | device M pairs/s |')
console.log('|---|---:|---:|---:|---:|---:|---|---:|---:|---:|')
for (const r of rows) console.log(`| ${r.workload} | ${r.points} | ${r.steps} | ${r.cpuMs} | ${r.gpuMs} | ${(r.gpuMs / Math.max(1, r.cpuMs)).toFixed(1)}× | ${r.isIdentical ? 'yes' : 'NO'} | ${r.rounds} | ${r.certifiedPct} | ${r.mpairsPerS} |`)
console.log(JSON.stringify({ bench: 'gpu-check', renderer: device.renderer, kind, pointsPerPart: points, auto: auto.decision, rows }))
if (rows.length === 0) {
  console.error('gpu-check: no workload ran within the budget; raise --budget-s')
  process.exitCode = 1
} else if (rows.some(r => !r.isIdentical)) {
  console.error('gpu-check: the GPU backend differs from the CPU backend: a bug, please report it')
  process.exitCode = 1
}
