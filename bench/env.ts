// Environment tool latency in headless Chromium: pose tools and capture_scene on an 8-part benchmark-like episode (n, median, p95).
import { availableParallelism, cpus } from 'node:os'
import { encodeEpisode } from '../src/episode/index.ts'
import { type HeadlessCall, openHeadlessSession } from '../src/headless/index.ts'
import { buildSetupEpisode } from '../test/helpers/episode-fixture.ts'

const PARTS = 8
const POSE_CALLS_PER_TOOL = 200
const CAPTURES = 30
/** Calls of each kind run first and left out of the figures (JIT, first WebGL program compile). */
const WARMUP_CALLS = 3
const TARGET_MS = { pose: 5, capture: 250 } as const

function part(i: number): string {
  return `part-${String(1 + (i % PARTS)).padStart(4, '0')}`
}

/** Deterministic pose edits cycling over the parts; every capture follows a pose change, so each sees a new state. */
function benchCalls(): HeadlessCall[] {
  const calls: HeadlessCall[] = []
  const rounds = WARMUP_CALLS + POSE_CALLS_PER_TOOL
  for (let i = 0; i < rounds; i++) {
    const s = ((i % 7) - 3) / 100
    calls.push({ name: 'translate_objects', arguments: { ids: [part(i)], delta: [s, -s, s / 2] } })
    calls.push({ name: 'rotate_objects', arguments: { ids: [part(i + 1)], angles: [5, -3, 7] } })
    calls.push({ name: 'set_object_pose', arguments: { id: part(i + 2), position: [s, s, -s], quaternion: [1, s, 0, 0] } })
    if (i < WARMUP_CALLS + CAPTURES) calls.push({ name: 'capture_scene', arguments: {} })
  }
  return calls
}

function stats(ms: number[]): { n: number, median: number, p95: number } {
  const s = [...ms].sort((a, b) => a - b)
  const at = (q: number): number => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? Number.NaN
  const round = (v: number): number => Math.round(v * 100) / 100
  return { n: s.length, median: round(at(0.5)), p95: round(at(0.95)) }
}

const session = await openHeadlessSession()
try {
  const episode = await encodeEpisode(buildSetupEpisode({ parts: PARTS }))
  const started = performance.now()
  const response = await session.run({ episode: Buffer.from(episode).toString('base64'), source: `bench-${PARTS}-parts`, calls: benchCalls() })
  const wallS = (performance.now() - started) / 1000
  const failed = response.outputs.filter(o => o.output.startsWith('{"error"'))
  if (failed.length > 0) throw new Error(`bench calls failed: ${failed[0]?.name} → ${failed[0]?.output}`)
  const byTool = new Map<string, number[]>()
  for (const output of response.outputs) byTool.set(output.name, [...(byTool.get(output.name) ?? []), output.ms])
  const firstCapture = byTool.get('capture_scene')?.[0] ?? Number.NaN
  const rows = [...byTool].map(([tool, ms]) => {
    const kept = ms.slice(WARMUP_CALLS)
    const target = tool === 'capture_scene' ? TARGET_MS.capture : TARGET_MS.pose
    const s = stats(kept)
    return { tool, ...s, targetMs: target, meetsTarget: s.p95 < target }
  })
  const machine = { cpus: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform}-${process.arch}`, gpu: session.gpu }
  console.log(`machine: ${machine.cpus} CPUs (${machine.cpu}), Node ${machine.node}, ${machine.platform}`)
  console.log(`webgl: ${machine.gpu}; renderer ${response.renderer}; webmcp ${response.webmcp}; ${PARTS} parts; run ${wallS.toFixed(1)} s`)
  console.log(`first capture (context + shader compile): ${firstCapture.toFixed(1)} ms`)
  console.log('tool                 n   median ms   p95 ms   target ms   p95 ok')
  for (const r of rows) {
    console.log(`${r.tool.padEnd(18)} ${String(r.n).padStart(3)} ${r.median.toFixed(2).padStart(11)} ${r.p95.toFixed(2).padStart(8)} ${String(r.targetMs).padStart(11)}   ${r.meetsTarget ? 'yes' : 'NO'}`)
  }
  console.log(JSON.stringify({ bench: 'env', parts: PARTS, machine, renderer: response.renderer, webmcp: response.webmcp, firstCaptureMs: Math.round(firstCapture * 10) / 10, rows }))
} finally {
  await session.close()
}
