// Scoring speed: per-sample wall and process-CPU milliseconds (n, median, p95) for seeded synthetic samples and the six chair poses, 0 and 2 workers.
// CPU ms is process.cpuUsage() (every thread of this process, workers included), so it stays meaningful on a busy
// machine where wall clocks are not; workers=0 runs the starts in this thread.
// Usage: tsx bench/scoring.ts [--kernel cells|wasm|js] [--workers 0,2] [--only chair|synthetic-N]
import { availableParallelism } from 'node:os'
import { ICP_KERNELS, type SampleInput } from '../src/scoring/index.ts'
import { ScoringPool } from '../src/scoring/workers/index.ts'
import { CHAIR_POSES, POINTS_PER_PART, chairSample, syntheticSamples } from './samples.ts'

const SYNTHETIC_SAMPLES = 2

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}
const kernelFlag = flag('--kernel') ?? 'cells'
const kernel = ICP_KERNELS.find(k => k === kernelFlag)
if (kernel === undefined) throw new Error(`--kernel: expected one of ${ICP_KERNELS.join(', ')}, got ${kernelFlag}`)
const WORKER_COUNTS = (flag('--workers') ?? '0,2').split(',').map(Number)
if (WORKER_COUNTS.some(w => !Number.isInteger(w) || w < 0)) throw new Error(`--workers: expected whole numbers like 0,2, got ${flag('--workers')}`)
const only = flag('--only')

function stats(ms: number[]): { n: number; median: number; p95: number } {
  const s = [...ms].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
  return { n: s.length, median: Math.round(at(0.5)), p95: Math.round(at(0.95)) }
}

const suites: { name: string; inputs: SampleInput[] }[] = [
  ...[2, 6, 12, 18].map(parts => ({ name: `synthetic-${parts}`, inputs: syntheticSamples(parts, SYNTHETIC_SAMPLES) })),
  ...CHAIR_POSES.map(pose => ({ name: `chair/${pose}`, inputs: [chairSample(pose)] })),
].filter(suite => only === undefined || suite.name.startsWith(only))

interface Row { suite: string; workers: number; n: number; wallMedian: number; wallP95: number; cpuMedian: number; cpuP95: number }
const rows: Row[] = []
for (const workers of WORKER_COUNTS) {
  const pool = new ScoringPool({ workers, kernel })
  // One untimed sample so worker start-up and compilation are not billed to the first suite.
  await pool.scoreSample(syntheticSamples(2, 1)[0]!, { pointsPerPart: POINTS_PER_PART })
  for (const suite of suites) {
    const wall: number[] = []
    const cpu: number[] = []
    for (const input of suite.inputs) {
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      await pool.scoreSample(input, { pointsPerPart: POINTS_PER_PART })
      wall.push(performance.now() - t0)
      const c = process.cpuUsage(c0)
      cpu.push((c.user + c.system) / 1000)
    }
    const w = stats(wall), c = stats(cpu)
    rows.push({ suite: suite.name, workers, n: w.n, wallMedian: w.median, wallP95: w.p95, cpuMedian: c.median, cpuP95: c.p95 })
    process.stderr.write(`${suite.name} workers=${workers} wall=${w.median} ms cpu=${c.median} ms\n`)
  }
  await pool.close()
}
const machine = { cpus: availableParallelism(), node: process.version, platform: `${process.platform}-${process.arch}` }
console.log(`machine: ${machine.cpus} CPUs, Node ${machine.node}, ${machine.platform}; ICP kernel: ${kernel}`)
console.log('suite                    workers   n   wall median   wall p95   CPU median    CPU p95')
for (const r of rows) {
  console.log(`${r.suite.padEnd(24)} ${String(r.workers).padStart(7)} ${String(r.n).padStart(3)} ${String(r.wallMedian).padStart(13)} ${String(r.wallP95).padStart(10)} ${String(r.cpuMedian).padStart(12)} ${String(r.cpuP95).padStart(10)}`)
}
console.log(JSON.stringify({ bench: 'scoring', machine, kernel, rows }))
