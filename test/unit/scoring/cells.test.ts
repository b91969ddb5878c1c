// The Voronoi neighbour sets of cells.ts: a strict pass of the cell test is the unique brute-force nearest point, even
// for queries a hair either side of a bisector; S_j holds the second-nearest point; chunked builds lay out the same cells.
import { describe, expect, it } from 'vitest'
import { CellBuilder, KdTree, buildVoronoiCells, type VoronoiCells } from '../../../src/scoring/index.ts'
import { buildCellChunk, layoutCellChunks, type CellChunk } from '../../../src/scoring/workers/cell-chunks.ts'
import { randomBox, seededRandom } from './synthetic.ts'

/** A 3-box "chair-like" cloud: a seat, a back and a leg, so cells range from tiny to long thin prisms. */
function cloud(seed: number, n: number): Float64Array {
  const rng = seededRandom(seed)
  const third = Math.floor(n / 3)
  const seat = randomBox(rng, third, [0.5, 0.5, 0.04])
  const back = randomBox(rng, third, [0.5, 0.04, 0.6]).map((v, i) => (i % 3 === 1 ? v + 0.25 : i % 3 === 2 ? v + 0.3 : v))
  const leg = randomBox(rng, n - 2 * third, [0.04, 0.04, 0.5]).map((v, i) => (i % 3 === 2 ? v - 0.27 : v))
  return Float64Array.from([...seat, ...back, ...leg])
}

/** fl|x − p_i|² for every i, and the index of the unique minimum (−1 on a tie) and the second smallest value. */
function bruteForce(points: Float64Array, x: number, y: number, z: number): { best: number; unique: boolean; d1: number; d2: number } {
  let d1 = Infinity, d2 = Infinity, best = -1, count = 0
  for (let i = 0; i < points.length / 3; i++) {
    const dx = x - points[3 * i]!, dy = y - points[3 * i + 1]!, dz = z - points[3 * i + 2]!
    const d = dx * dx + dy * dy + dz * dz
    if (d < d1) { d2 = d1; d1 = d; best = i; count = 1 }
    else if (d === d1) { count++; d2 = d }
    else if (d < d2) d2 = d
  }
  return { best, unique: count === 1, d1, d2 }
}

/** The cell test of the kernel: every k ∈ S_j strictly farther than j. Returns the smallest distance over S_j, or −1. */
function cellTest(cells: VoronoiCells, points: Float64Array, j: number, x: number, y: number, z: number): number {
  const dx = x - points[3 * j]!, dy = y - points[3 * j + 1]!, dz = z - points[3 * j + 2]!
  const dj = dx * dx + dy * dy + dz * dz
  let second = Infinity
  for (let e = cells.start[j]!; e < cells.start[j + 1]!; e++) {
    const m = cells.nbr[e]!
    const ex = x - points[3 * m]!, ey = y - points[3 * m + 1]!, ez = z - points[3 * m + 2]!
    const d = ex * ex + ey * ey + ez * ez
    if (!(d > dj)) return -1
    if (d < second) second = d
  }
  return second
}

describe('Voronoi cells', () => {
  it('never certify a wrong or tied nearest point, even a hair off a bisector, and hold the second nearest', () => {
    const tree = new KdTree(cloud(1, 1500))
    const cells = buildVoronoiCells(tree)
    const points = tree.points
    const n = tree.size
    const box = cells.box
    const rng = seededRandom(99)
    let passes = 0, near = 0
    for (let q = 0; q < 6000; q++) {
      const j = Math.floor(rng() * n)
      if (cells.noCell[j] === 1) continue
      const e0 = cells.start[j]!, e1 = cells.start[j + 1]!
      const k = cells.nbr[e0 + Math.floor(rng() * (e1 - e0))]!
      // A point of the bisector plane of (j, k), spread over the cell's neighbourhood or far along the plane, then
      // pushed 1e-16 … 1e-9 (relative) to either side.
      const nx = points[3 * k]! - points[3 * j]!, ny = points[3 * k + 1]! - points[3 * j + 1]!, nz = points[3 * k + 2]! - points[3 * j + 2]!
      const mx = 0.5 * (points[3 * j]! + points[3 * k]!), my = 0.5 * (points[3 * j + 1]! + points[3 * k + 1]!), mz = 0.5 * (points[3 * j + 2]! + points[3 * k + 2]!)
      const spread = [0.001, 0.05, 0.5, 1.5][q % 4]!
      let x = mx + (rng() - 0.5) * spread, y = my + (rng() - 0.5) * spread, z = mz + (rng() - 0.5) * spread
      const nn = nx * nx + ny * ny + nz * nz
      const along = ((x - mx) * nx + (y - my) * ny + (z - mz) * nz) / nn + (rng() - 0.5) * 10 ** (-16 + 7 * rng())
      x -= along * nx; y -= along * ny; z -= along * nz
      if (!(x > box[0]! && x < box[3]! && y > box[1]! && y < box[4]! && z > box[2]! && z < box[5]!)) continue
      const truth = bruteForce(points, x, y, z)
      if (Math.abs(truth.d2 - truth.d1) < 1e-12 * truth.d1) near++
      for (const candidate of [j, k, truth.best]) {
        if (candidate < 0 || cells.noCell[candidate] === 1) continue
        const second = cellTest(cells, points, candidate, x, y, z)
        if (second < 0) continue
        passes++
        expect(candidate, `query ${q}: cell of ${candidate} passed, brute force says ${truth.best}`).toBe(truth.best)
        expect(truth.unique).toBe(true)
        expect(second).toBe(truth.d2)
      }
    }
    // The test must really probe the edge: many passes, and many queries within roundoff of a tie.
    expect(passes).toBeGreaterThan(2000)
    expect(near).toBeGreaterThan(300)
  })

  it('are the same when built in chunks, in any order, and laid out in shared memory', () => {
    const tree = new KdTree(cloud(2, 700))
    const whole = buildVoronoiCells(tree)
    const builder = new CellBuilder(tree)
    const chunks: CellChunk[] = []
    for (let lo = 0; lo < tree.size; lo += 64) chunks.push(buildCellChunk(builder, 1, lo, Math.min(tree.size, lo + 64)))
    chunks.reverse()
    const shared = layoutCellChunks(tree.size, chunks)
    expect(shared.start.buffer).toBeInstanceOf(SharedArrayBuffer)
    expect(Array.from(shared.start)).toEqual(Array.from(whole.start))
    expect(Array.from(shared.nbr.subarray(0, whole.nbr.length))).toEqual(Array.from(whole.nbr))
    expect(Array.from(shared.noCell)).toEqual(Array.from(whole.noCell))
    expect(() => layoutCellChunks(tree.size, chunks.slice(1))).toThrow(/tile|cover/)
  })

  it('give no cell to duplicated points and to a one-point cloud', () => {
    const points = Float64Array.from([...cloud(3, 60), 0.01, 0.02, 0.03, 0.01, 0.02, 0.03])
    const tree = new KdTree(points)
    const cells = buildVoronoiCells(tree)
    const duplicates = [0, 1].map(k => tree.order.indexOf(60 + k))
    for (const j of duplicates) expect(cells.noCell[j]).toBe(1)
    // Clipping twice by the same plane (the duplicates' bisectors coincide) can leave a neighbour's polytope
    // inconsistent, which costs that neighbour its cell (a KD search instead), never a wrong answer.
    expect(cells.noCell.reduce((a, v) => a + v, 0)).toBeLessThanOrEqual(4)
    expect(buildVoronoiCells(new KdTree(new Float64Array([1, 2, 3]))).noCell[0]).toBe(1)
  })
})
