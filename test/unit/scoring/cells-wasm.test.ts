// The WebAssembly cell kernel against the JS CellBuilder: the same S_j (integers, order, no-cell decisions) on random,
// degenerate, tiny and real clouds, for any split of the points into ranges; and the committed kernel is fresh.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { chairSample } from '../../../bench/samples.ts'
import { buildVoronoiCells, type VoronoiCells } from '../../../src/scoring/cells.ts'
import { WasmCellBuilder, buildVoronoiCellsWasm } from '../../../src/scoring/cells-wasm.ts'
import { KdTree, planSample } from '../../../src/scoring/index.ts'
import { CELLS_KERNEL_BASE64 } from '../../../src/scoring/kernel/cells-kernel.wasm.ts'
import { CELLS_KERNEL, compileKernel } from '../../../scripts/wasm-kernel.ts'
import { randomBox, seededRandom } from './synthetic.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const POINTS_PER_PART = 1000

/** Builds both ways and compares every array (deep equality reports the first differing index). */
function expectSameCells(cloud: Float64Array): VoronoiCells {
  const tree = new KdTree(cloud)
  const js = buildVoronoiCells(tree)
  const wasm = buildVoronoiCellsWasm(tree)
  expect(wasm.noCell).toEqual(js.noCell)
  expect(wasm.start).toEqual(js.start)
  expect(wasm.nbr).toEqual(js.nbr)
  expect(wasm.nbrXyz).toEqual(js.nbrXyz)
  expect(wasm.box).toEqual(js.box)
  return js
}

function noCells(cells: VoronoiCells): number {
  return cells.noCell.reduce((sum, x) => sum + x, 0)
}

/** An L of two boxes, so cells vary in shape and size. */
function lCloud(seed: number, n: number): Float64Array {
  const rng = seededRandom(seed)
  const a = randomBox(rng, n / 2, [0.6, 0.1, 0.2]), b = randomBox(rng, n / 2, [0.1, 0.5, 0.2])
  const cloud = new Float64Array(3 * n)
  cloud.set(a)
  cloud.set(b.map((v, i) => (i % 3 === 0 ? v + 0.3 : v)), a.length)
  return cloud
}

describe('WasmCellBuilder', () => {
  it('matches CellBuilder on random box-surface clouds', () => {
    for (const [seed, n] of [[1, 400], [2, 1500], [3, 3000]] as const) expectSameCells(randomBox(seededRandom(seed), n, [0.5, 0.4, 0.3]))
    expectSameCells(lCloud(4, 2000))
  })

  it('matches CellBuilder on uniform random points in a ball-ish volume', () => {
    const rng = seededRandom(5)
    const cloud = new Float64Array(3 * 1200).map(() => rng() - 0.5)
    expectSameCells(cloud)
  })

  it('matches CellBuilder on exact and near duplicates (no cell for those points)', () => {
    const rng = seededRandom(6)
    const base = randomBox(rng, 800, [0.5, 0.4, 0.3])
    const extra: number[] = []
    for (let k = 0; k < 40; k++) {
      const i = 3 * Math.floor(rng() * 800)
      const x = base[i]!, y = base[i + 1]!, z = base[i + 2]!
      // Exact copies, copies a hair away (well inside DUP_TOL·D), and copies just outside it.
      const offset = k % 3 === 0 ? 0 : k % 3 === 1 ? 1e-9 : 3e-6
      extra.push(x + offset, y, z - offset)
    }
    const cells = expectSameCells(Float64Array.from([...base, ...extra]))
    expect(noCells(cells)).toBeGreaterThan(0)
  })

  it('matches CellBuilder on a regular grid (co-spherical points everywhere) and a flat grid', () => {
    const grid: number[] = []
    for (let x = 0; x < 10; x++) for (let y = 0; y < 10; y++) for (let z = 0; z < 10; z++) grid.push(0.1 * x, 0.1 * y, 0.1 * z)
    expectSameCells(Float64Array.from(grid))
    const flat: number[] = []
    for (let x = 0; x < 30; x++) for (let y = 0; y < 30; y++) flat.push(x, y, 0)
    expectSameCells(Float64Array.from(flat))
  })

  it('matches CellBuilder on tiny and degenerate clouds', () => {
    const rng = seededRandom(8)
    for (const n of [1, 2, 3, 5, 17]) expectSameCells(new Float64Array(3 * n).map(() => rng()))
    // All points equal: D = 0, so every parameter is 0 and the balls have NaN radii.
    expectSameCells(new Float64Array(3 * 6).fill(0.25))
    // Collinear points.
    expectSameCells(Float64Array.from({ length: 3 * 50 }, (_, i) => (i % 3 === 0 ? Math.floor(i / 3) * 0.01 : 0)))
  })

  it('matches CellBuilder on the chair (conformance 11), target and prediction', () => {
    const input = chairSample('displaced')
    const plan = planSample(input, { pointsPerPart: POINTS_PER_PART })
    expectSameCells(plan.prepared.target)
    expectSameCells(plan.prepared.prediction)
  })

  it('builds any sub-range exactly as the slice of the full build, in any order and repeatedly', () => {
    const tree = new KdTree(lCloud(9, 1200))
    const full = buildVoronoiCells(tree)
    const builder = new WasmCellBuilder(tree)
    const n = tree.size
    // Overlapping, repeated and empty ranges on one builder: each point's result must not depend on what came before.
    for (const [lo, hi] of [[500, 900], [0, 1], [0, 600], [n - 1, n], [700, 700], [100, n], [500, 900]] as const) {
      const { counts, nbr } = builder.buildRange(lo, hi)
      const expectedCounts = Int32Array.from({ length: hi - lo }, (_, k) => (full.noCell[lo + k] ? -1 : full.start[lo + k + 1]! - full.start[lo + k]!))
      expect(counts).toEqual(expectedCounts)
      expect(nbr).toEqual(full.nbr.slice(full.start[lo], full.start[hi]))
    }
    expect(() => builder.buildRange(0, n + 1)).toThrow(RangeError)
  })

  it('grows its memory when the ball lists outgrow the pool, with the same result', () => {
    const tree = new KdTree(randomBox(seededRandom(10), 1500, [0.5, 0.4, 0.3]))
    const full = buildVoronoiCells(tree)
    const builder = new WasmCellBuilder(tree, 8)
    const before = builder.memoryBytes()
    const { counts, nbr } = builder.buildRange(0, tree.size)
    expect(builder.memoryBytes()).toBeGreaterThan(before)
    expect(counts).toEqual(Int32Array.from({ length: tree.size }, (_, j) => (full.noCell[j] ? -1 : full.start[j + 1]! - full.start[j]!)))
    expect(nbr).toEqual(full.nbr)
  })
})

describe('the committed cell kernel', () => {
  it('is what the pinned AssemblyScript compiles from the kernel source (run `npm run build:wasm` when this fails)', async () => {
    const wasm = await compileKernel(ROOT, CELLS_KERNEL)
    expect(Buffer.from(wasm).toString('base64')).toBe(CELLS_KERNEL_BASE64)
  }, 60_000)
})
