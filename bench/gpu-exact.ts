// Whole-row exactness of the GPU backend's lockstep scorer at full size, without a GPU: every awb-mini sample (a
// near-perfect and a scrambled pose) and every 11-chair pose is scored by the lockstep scorer against a device that
// answers exactly like the page kernel's float32 brute force (test/helpers/kd-float32-device.ts) and by the CPU
// backend; every row must be bit-identical. Prints a table with the certification figures and one JSON line. One
// process per CPU (each row is 5–30 M device queries at ~1.5 µs). Also prints each row's point pairs, which a GPU
// brute force must compare, and the throughput at which it would merely tie this CPU.
// Usage: tsx bench/gpu-exact.ts [--only <substring of the sample path>] [--jobs N]
import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import pLimit from 'p-limit'
import { quaternionToMatrix, scoreSample, type SampleInput } from '../src/scoring/index.ts'
import { emptyLockstepStats, scoreSamplesOnDevice } from '../src/scoring/gpu/index.ts'
import { floatBits } from '../test/helpers/float-bits.ts'
import { KdFloat32Device } from '../test/helpers/kd-float32-device.ts'
import { readEvaluation } from '../test/helpers/perturbed-sample.ts'
import { sampleFromEvaluation, type PosesFile } from '../test/unit/scoring/load-conformance.ts'
import { awbMiniRows } from './awb-mini-poses.ts'

const CHAIR = 'test/fixtures/conformance/scoring/11_chair'

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}

/** One row to check: where its input comes from, and how to build it. */
interface Case { name: string; parts: number; build: () => SampleInput }

function cases(): Case[] {
  const list: Case[] = []
  for (const row of awbMiniRows()) {
    for (const pose of ['near-perfect', 'scrambled'] as const) list.push({ name: `${row.name} ${pose}`, parts: row.parts, build: () => row.build(pose) })
  }
  const chair = readEvaluation(join(CHAIR, 'evaluation.json'))
  const q = (w: number[]) => quaternionToMatrix(new Float64Array(9), w)
  for (const pose of readdirSync(join(CHAIR, 'poses')).filter(n => n.endsWith('.json')).sort()) {
    const poses = JSON.parse(readFileSync(join(CHAIR, 'poses', pose), 'utf8')) as PosesFile
    list.push({ name: `11_chair ${pose.replace(/\.json$/, '')}`, parts: chair.part_ids.length, build: () => sampleFromEvaluation(chair, poses, q) })
  }
  return list
}

interface Result { name: string; parts: number; cpuMs: number; lockstepMs: number; rounds: number; queries: number; pairs: number; certifiedPct: number; fallbacks: number; isIdentical: boolean }

/** Scores one case both ways (in this process). */
async function check(one: Case): Promise<Result> {
  const input = one.build()
  let clock = performance.now()
  const cpu = scoreSample(input)
  const cpuMs = performance.now() - clock
  const stats = emptyLockstepStats()
  clock = performance.now()
  const [outcome] = await scoreSamplesOnDevice(new KdFloat32Device(), [input], {}, stats)
  const lockstepMs = performance.now() - clock
  return {
    name: one.name, parts: one.parts, cpuMs: Math.round(cpuMs), lockstepMs: Math.round(lockstepMs), rounds: stats.rounds, queries: stats.queries, pairs: stats.pairs,
    certifiedPct: Math.round(1e4 * stats.certified / Math.max(1, stats.queries)) / 100, fallbacks: stats.fallbacks,
    isIdentical: outcome !== undefined && 'score' in outcome && floatBits(outcome.score) === floatBits(cpu),
  }
}

const one = flag('--case')
if (one !== undefined) {
  // Child mode: one case, its result as JSON on stdout.
  const found = cases().find(c => c.name === one)
  if (found === undefined) throw new Error(`--case: no case named ${JSON.stringify(one)}`)
  process.stdout.write(JSON.stringify(await check(found)))
} else {
  const only = flag('--only')
  const jobs = Number(flag('--jobs') ?? availableParallelism())
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs: expected a whole number ≥ 1, got ${flag('--jobs')}`)
  const selected = cases().filter(c => only === undefined || c.name.includes(only))
  const self = fileURLToPath(import.meta.url)
  const limit = pLimit(jobs)
  const started = performance.now()
  const results = await Promise.all(selected.map(c => limit(async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', self, '--case', c.name], { maxBuffer: 1 << 20 })
    const result = JSON.parse(stdout) as Result
    process.stderr.write(`${result.name}: ${result.isIdentical ? 'identical' : 'DIFFERENT'} (${result.queries} queries, ${result.certifiedPct} % certified)\n`)
    return result
  })))
  console.log(`\nLockstep GPU scorer vs CPU backend, whole rows at full size, float32 brute-force-exact device (${cpus()[0]?.model ?? 'cpu'} ×${availableParallelism()}, ${jobs} jobs, ${((performance.now() - started) / 1000).toFixed(0)} s)`)
  // A GPU brute-forces every point pair of every round: to beat this CPU (one thread here) it must compare at least
  // pairs / cpu time, before its round trips are counted.
  console.log('| row | parts | device rounds | queries | certified % | KD fallbacks | point pairs | cpu ms (1 thread) | GPU break-even, G pairs/s | lockstep ms | bit-identical |')
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
  for (const r of results) console.log(`| ${r.name} | ${r.parts} | ${r.rounds} | ${r.queries} | ${r.certifiedPct} | ${r.fallbacks} | ${r.pairs.toExponential(2)} | ${r.cpuMs} | ${(r.pairs / Math.max(1, r.cpuMs) / 1e6).toFixed(0)} | ${r.lockstepMs} | ${r.isIdentical ? 'yes' : 'NO'} |`)
  const identical = results.filter(r => r.isIdentical).length
  console.log(JSON.stringify({ bench: 'gpu-exact', rows: results.length, identical, queries: results.reduce((s, r) => s + r.queries, 0), certifiedPct: Math.round(1e4 * results.reduce((s, r) => s + r.queries * r.certifiedPct / 100, 0) / Math.max(1, results.reduce((s, r) => s + r.queries, 0))) / 100 }))
  if (identical !== results.length) {
    console.error('gpu-exact: a row differs between the lockstep scorer and the CPU backend: a bug, please report it')
    process.exitCode = 1
  }
}
