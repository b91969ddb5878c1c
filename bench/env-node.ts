// Latency of the pose tools of WorldRuntime in Node on 8- and 19-part benchmark episodes; prints a table and one JSON line.
import { cpus } from 'node:os'
import { loadMujoco, WorldRuntime } from '../src/world/index.ts'
import { buildSetupEpisode } from '../test/helpers/episode-fixture.ts'

/** Timed calls per tool and episode (after warm-up). */
const ITERATIONS = 200
const WARMUP_CALLS = 20
const PART_COUNTS = [8, 19]

type Input = (i: number) => Record<string, unknown>

const TOOLS: [string, Input][] = [
  ['translate_objects', i => ({ ids: ['part-0001', 'part-0002'], delta: [0.001 * (i % 7), -0.001, 0.0005] })],
  ['rotate_objects', i => ({ ids: ['part-0001', 'part-0003'], angles: [1 + (i % 5), -2, 3], pivot: [0.1, 0.2, 0.3] })],
  ['set_object_pose', i => ({ id: 'part-0002', position: [0.01 * (i % 11), 0, 0.1], quaternion: [1, 0.1, 0, 0] })],
  ['get_state', () => ({})],
]

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN
}

const mujoco = await loadMujoco()
const rows: { parts: number, tool: string, n: number, medianMs: number, p95Ms: number }[] = []
for (const parts of PART_COUNTS) {
  const runtime = WorldRuntime.open({ mujoco, episode: buildSetupEpisode({ parts }) })
  for (const [tool, input] of TOOLS) {
    for (let i = 0; i < WARMUP_CALLS; i++) await runtime.callTool(tool, input(i))
    const times: number[] = []
    for (let i = 0; i < ITERATIONS; i++) {
      const start = performance.now()
      await runtime.callTool(tool, input(i))
      times.push(performance.now() - start)
    }
    times.sort((a, b) => a - b)
    rows.push({ parts, tool, n: ITERATIONS, medianMs: percentile(times, 0.5), p95Ms: percentile(times, 0.95) })
  }
  runtime.dispose()
}
const machine = `${cpus()[0]?.model ?? 'unknown cpu'} ×${cpus().length}, Node ${process.version}`
process.stdout.write(`env-node: pose tool latency (${machine})\n`)
process.stdout.write(`${'parts'.padEnd(6)}${'tool'.padEnd(20)}${'n'.padStart(6)}${'median ms'.padStart(12)}${'p95 ms'.padStart(10)}\n`)
for (const row of rows) {
  process.stdout.write(`${String(row.parts).padEnd(6)}${row.tool.padEnd(20)}${String(row.n).padStart(6)}${row.medianMs.toFixed(3).padStart(12)}${row.p95Ms.toFixed(3).padStart(10)}\n`)
}
process.stdout.write(`${JSON.stringify({ bench: 'env-node', machine, rows })}\n`)
