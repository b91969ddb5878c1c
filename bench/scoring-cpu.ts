// Single-thread scoring CPU time per sample plus a bit-level fingerprint of every start's result; no worker threads.
// Usage: tsx bench/scoring-cpu.ts [--only chair|synthetic-N] [--kernel cells|wasm|js] [--save FILE | --check FILE]
// --save writes every start's result (float bits as hex) to FILE; --check compares against such a file and exits 1 on
// the first difference, so a speed change can prove it changed no result.
import { readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { ICP_KERNELS, finishSample, planSample, runStarts, type SampleInput, type StartResult } from '../src/scoring/index.ts'
import { CHAIR_POSES, POINTS_PER_PART, chairSample, syntheticSamples } from './samples.ts'

const SYNTHETIC_PART_COUNTS = [2, 6, 12, 18]
const SYNTHETIC_SAMPLES = 2

const _bits = new Float64Array(1)
const _words = new Uint32Array(_bits.buffer)
function hex(x: number): string {
  _bits[0] = x
  return _words[1]!.toString(16).padStart(8, '0') + _words[0]!.toString(16).padStart(8, '0')
}

function fingerprint(results: readonly StartResult[], scoreJson: string): string[] {
  const lines = results.map(r => [
    r.seed, hex(r.chamfer), r.bestIteration, r.iterations, r.converged,
    Array.from(r.rotation, hex).join(','), Array.from(r.translation, hex).join(','),
  ].join(' '))
  lines.push(scoreJson)
  return lines
}

const args = process.argv.slice(2)
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const only = flag('--only')
const saveTo = flag('--save')
const checkAgainst = flag('--check')
const kernelFlag = flag('--kernel') ?? 'cells'
const kernel = ICP_KERNELS.find(k => k === kernelFlag)
if (kernel === undefined) throw new Error(`--kernel: expected one of ${ICP_KERNELS.join(', ')}, got ${kernelFlag}`)

const samples: { name: string; input: SampleInput }[] = []
for (const parts of SYNTHETIC_PART_COUNTS) {
  syntheticSamples(parts, SYNTHETIC_SAMPLES).forEach((input, k) => samples.push({ name: `synthetic-${parts}#${k}`, input }))
}
for (const pose of CHAIR_POSES) samples.push({ name: `chair/${pose}`, input: chairSample(pose) })
const selected = samples.filter(s => only === undefined || s.name.startsWith(only))

// One untimed warm-up so the first timed sample does not pay for compilation.
{
  const warm = syntheticSamples(2, 1)[0]!
  const plan = planSample(warm, { pointsPerPart: POINTS_PER_PART })
  runStarts(plan.prepared.prediction, plan.prepared.target, plan.starts, kernel)
}

const rows: { sample: string; cpuMs: number; wallMs: number; starts: number; iterations: number }[] = []
const prints: Record<string, string[]> = {}
for (const { name, input } of selected) {
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const plan = planSample(input, { pointsPerPart: POINTS_PER_PART })
  const results = runStarts(plan.prepared.prediction, plan.prepared.target, plan.starts, kernel)
  const score = finishSample(plan, results)
  const wallMs = performance.now() - t0
  const c = process.cpuUsage(c0)
  const cpuMs = (c.user + c.system) / 1000
  const iterations = results.reduce((sum, r) => sum + r.iterations, 0)
  rows.push({ sample: name, cpuMs: Math.round(cpuMs), wallMs: Math.round(wallMs), starts: results.length, iterations })
  prints[name] = fingerprint(results, JSON.stringify(score))
  process.stderr.write(`${name}: ${Math.round(cpuMs)} ms CPU, ${iterations} iterations\n`)
}

let mismatch = false
if (saveTo !== undefined) writeFileSync(saveTo, JSON.stringify(prints, null, 1))
if (checkAgainst !== undefined) {
  const golden = JSON.parse(readFileSync(checkAgainst, 'utf8')) as Record<string, string[]>
  for (const [name, lines] of Object.entries(prints)) {
    const want = golden[name]
    if (want === undefined) { process.stderr.write(`${name}: not in ${checkAgainst}\n`); mismatch = true; continue }
    const i = lines.findIndex((line, k) => line !== want[k])
    if (i >= 0 || lines.length !== want.length) {
      process.stderr.write(`${name}: DIFFERS at line ${i}\n  got  ${lines[i]?.slice(0, 300)}\n  want ${want[i]?.slice(0, 300)}\n`)
      mismatch = true
    }
  }
  process.stderr.write(mismatch ? 'fingerprint: DIFFERENT\n' : `fingerprint: identical (${Object.keys(prints).length} samples)\n`)
}

const machine = { cpus: availableParallelism(), node: process.version, platform: `${process.platform}-${process.arch}` }
console.log(`machine: ${machine.cpus} CPUs, Node ${machine.node}, ${machine.platform}; ICP kernel: ${kernel}`)
console.log('sample                     starts  iterations   CPU ms   wall ms')
for (const r of rows) {
  console.log(`${r.sample.padEnd(26)} ${String(r.starts).padStart(6)} ${String(r.iterations).padStart(11)} ${String(r.cpuMs).padStart(8)} ${String(r.wallMs).padStart(9)}`)
}
console.log(JSON.stringify({ bench: 'scoring-cpu', machine, kernel, rows }))
if (mismatch) process.exitCode = 1
