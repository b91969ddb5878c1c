// Voronoi cell build time, JS CellBuilder vs the WebAssembly kernel, on the chair's target cloud and a synthetic
// 18-part cloud (centred, like the trees ICP builds); µs per point, min of RUNS back-to-back runs each, and a check
// that both builds give identical cells (exit 1 otherwise).
// Usage: tsx bench/cells-build.ts
import { availableParallelism } from 'node:os'
import { buildVoronoiCells, type VoronoiCells } from '../src/scoring/cells.ts'
import { buildVoronoiCellsWasm } from '../src/scoring/cells-wasm.ts'
import { KdTree, planSample, type SampleInput } from '../src/scoring/index.ts'
import { POINTS_PER_PART, chairSample, syntheticSamples } from './samples.ts'

const RUNS = 3

/** The cloud minus its centroid (as IcpContext centres both clouds before building trees). */
function centred(cloud: Float64Array): Float64Array {
  const n = cloud.length / 3
  let x = 0, y = 0, z = 0
  for (let i = 0; i < n; i++) { x += cloud[3 * i]!; y += cloud[3 * i + 1]!; z += cloud[3 * i + 2]! }
  x /= n; y /= n; z /= n
  return cloud.map((v, i) => v - (i % 3 === 0 ? x : i % 3 === 1 ? y : z))
}

function targetTree(input: SampleInput): KdTree {
  return new KdTree(centred(planSample(input, { pointsPerPart: POINTS_PER_PART }).prepared.target))
}

function same(a: VoronoiCells, b: VoronoiCells): boolean {
  const eq = (x: ArrayLike<number>, y: ArrayLike<number>): boolean => x.length === y.length && Array.prototype.every.call(x, (v: number, i: number) => Object.is(v, y[i]))
  return eq(a.start, b.start) && eq(a.nbr, b.nbr) && eq(a.noCell, b.noCell) && eq(a.nbrXyz, b.nbrXyz) && eq(a.box, b.box)
}

/** Min wall time (ms) of `runs` calls, alternating with nothing else; returns the last result too. */
function timed(build: () => VoronoiCells): { ms: number; cells: VoronoiCells } {
  let best = Infinity
  let cells: VoronoiCells | undefined
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now()
    cells = build()
    best = Math.min(best, performance.now() - t0)
  }
  return { ms: best, cells: cells! }
}

const clouds = [
  { name: 'chair target', tree: targetTree(chairSample('perfect')) },
  { name: 'synthetic-18 target', tree: targetTree(syntheticSamples(18, 1)[0]!) },
]

// Warm-up: let V8 optimise the JS builder and compile the kernel before anything is timed.
{
  const warm = new KdTree(centred(planSample(syntheticSamples(2, 1)[0]!, { pointsPerPart: POINTS_PER_PART }).prepared.target))
  buildVoronoiCells(warm)
  buildVoronoiCellsWasm(warm)
}

console.log(`machine: ${availableParallelism()} CPUs, Node ${process.version}, ${process.platform}-${process.arch}`)
console.log('cloud                   points  no cell   JS µs/pt  wasm µs/pt  speed-up  identical')
const rows = []
let mismatch = false
for (const { name, tree } of clouds) {
  // Back to back, so both see the same machine load.
  const js = timed(() => buildVoronoiCells(tree))
  const wasm = timed(() => buildVoronoiCellsWasm(tree))
  const identical = same(js.cells, wasm.cells)
  if (!identical) mismatch = true
  const n = tree.size
  const noCell = js.cells.noCell.reduce((s, x) => s + x, 0)
  const jsUs = (1000 * js.ms) / n, wasmUs = (1000 * wasm.ms) / n
  rows.push({ cloud: name, points: n, noCell, jsUsPerPoint: +jsUs.toFixed(2), wasmUsPerPoint: +wasmUs.toFixed(2), identical })
  console.log(`${name.padEnd(22)} ${String(n).padStart(7)} ${String(noCell).padStart(8)} ${jsUs.toFixed(1).padStart(10)} ${wasmUs.toFixed(1).padStart(11)} ${(jsUs / wasmUs).toFixed(2).padStart(8)}x  ${identical ? 'yes' : 'NO'}`)
}
console.log(JSON.stringify({ bench: 'cells-build', runs: RUNS, rows }))
if (mismatch) {
  process.stderr.write('cells differ between the JS and WebAssembly builds\n')
  process.exitCode = 1
}
