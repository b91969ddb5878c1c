// Adversarial check of the Voronoi cells (src/scoring/cells.ts) on realistic clouds, against brute force: queries on
// bisector planes of (j, k ∈ S_j), spread from 1e-3 to 1.2 cloud diagonals along the plane and pushed 1e-17…1e-9
// diagonals to either side; every strict pass of the cell test must be the unique brute-force nearest point, and the
// smallest distance over S_j must be the brute-force second-nearest distance. Exit 1 on any failure.
// Usage: tsx bench/cells-exactness.ts [--queries N]
import { KdTree, buildVoronoiCellsWasm, planSample, type VoronoiCells } from '../src/scoring/index.ts'
import { CHAIR_POSES, POINTS_PER_PART, chairSample, syntheticSamples } from './samples.ts'

const at = process.argv.indexOf('--queries')
const QUERIES = at < 0 ? 40000 : Number(process.argv[at + 1])

let seed = 987654
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}

function distSq(points: Float64Array, i: number, x: number, y: number, z: number): number {
  const dx = x - points[3 * i]!, dy = y - points[3 * i + 1]!, dz = z - points[3 * i + 2]!
  return dx * dx + dy * dy + dz * dz
}

/** The smallest fl distance over S_j when j strictly beats all of S_j, else −1. */
function cellPass(cells: VoronoiCells, points: Float64Array, j: number, x: number, y: number, z: number): number {
  const dj = distSq(points, j, x, y, z)
  let second = Infinity
  for (let e = cells.start[j]!; e < cells.start[j + 1]!; e++) {
    const d = distSq(points, cells.nbr[e]!, x, y, z)
    if (!(d > dj)) return -1
    if (d < second) second = d
  }
  return second
}

const clouds: [string, Float64Array][] = []
for (const pose of CHAIR_POSES) {
  const plan = planSample(chairSample(pose), { pointsPerPart: POINTS_PER_PART })
  clouds.push([`chair/${pose} prediction`, plan.prepared.prediction])
}
clouds.push(['chair target', planSample(chairSample('perfect'), { pointsPerPart: POINTS_PER_PART }).prepared.target])
const synthetic = planSample(syntheticSamples(18, 1)[0]!, { pointsPerPart: POINTS_PER_PART })
clouds.push(['synthetic-18 prediction', synthetic.prepared.prediction], ['synthetic-18 target', synthetic.prepared.target])

let failures = 0
for (const [name, cloud] of clouds) {
  const tree = new KdTree(cloud)
  const cells = buildVoronoiCellsWasm(tree)
  const points = tree.points, n = tree.size, box = cells.box
  const diagonal = Math.hypot(box[3]! - box[0]!, box[4]! - box[1]!, box[5]! - box[2]!) / 4.46
  let tests = 0, passes = 0, ties = 0, bad = 0
  for (let q = 0; q < QUERIES; q++) {
    const j = Math.floor(random() * n)
    if (cells.noCell[j] === 1 || cells.start[j + 1] === cells.start[j]) continue
    const e0 = cells.start[j]!, e1 = cells.start[j + 1]!
    const k = cells.nbr[e0 + Math.floor(random() * (e1 - e0))]!
    const nx = points[3 * k]! - points[3 * j]!, ny = points[3 * k + 1]! - points[3 * j + 1]!, nz = points[3 * k + 2]! - points[3 * j + 2]!
    const mx = 0.5 * (points[3 * j]! + points[3 * k]!), my = 0.5 * (points[3 * j + 1]! + points[3 * k + 1]!), mz = 0.5 * (points[3 * j + 2]! + points[3 * k + 2]!)
    const spread = [1e-3, 0.05, 0.5, 1.2][q % 4]! * diagonal
    let x = mx + (random() - 0.5) * spread, y = my + (random() - 0.5) * spread, z = mz + (random() - 0.5) * spread
    const nn = nx * nx + ny * ny + nz * nz
    const push = (random() - 0.5) * 10 ** (-17 + 8 * random()) * diagonal / Math.sqrt(nn)
    const along = ((x - mx) * nx + (y - my) * ny + (z - mz) * nz) / nn + push
    x -= along * nx; y -= along * ny; z -= along * nz
    if (!(x > box[0]! && x < box[3]! && y > box[1]! && y < box[4]! && z > box[2]! && z < box[5]!)) continue
    let d1 = Infinity, d2 = Infinity, best = -1, count = 0
    for (let i = 0; i < n; i++) {
      const d = distSq(points, i, x, y, z)
      if (d < d1) { d2 = d1; d1 = d; best = i; count = 1 } else if (d === d1) { count++; d2 = d } else if (d < d2) d2 = d
    }
    if (count > 1) ties++
    for (const candidate of new Set([j, k, best])) {
      if (cells.noCell[candidate] === 1) continue
      tests++
      const second = cellPass(cells, points, candidate, x, y, z)
      if (second < 0) continue
      passes++
      if (candidate !== best || count !== 1 || second !== d2) bad++
    }
  }
  failures += bad
  console.log(`${name.padEnd(32)} points ${n}  cell tests ${tests}  passes ${passes}  exact ties ${ties}  wrong ${bad}`)
}
console.log(failures === 0 ? 'no wrong answer' : `${failures} WRONG ANSWERS`)
if (failures > 0) process.exitCode = 1
