// The WebAssembly ICP kernel, with and without Voronoi cells, against the JS reference: same objective bits, same sums,
// same ICP results, exact ties included; the committed kernel is fresh.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { IcpContext, KdTree, alignmentStarts, buildVoronoiCells, quaternionToMatrix } from '../../../src/scoring/index.ts'
import { ICP_KERNEL_BASE64 } from '../../../src/scoring/kernel/icp-kernel.wasm.ts'
import { JsObjective } from '../../../src/scoring/objective.ts'
import { WasmObjective } from '../../../src/scoring/objective-wasm.ts'
import { compileIcpKernel } from '../../../scripts/wasm-kernel.ts'
import { randomBox, randomQuaternion, seededRandom } from './synthetic.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** Two differently shaped clouds of n points each (an L of two boxes vs a single box), so NN answers vary. */
function clouds(seed: number, n: number): { p: Float64Array; t: Float64Array } {
  const rng = seededRandom(seed)
  const a = randomBox(rng, n / 2, [0.6, 0.1, 0.2]), b = randomBox(rng, n / 2, [0.1, 0.5, 0.2])
  const p = new Float64Array(3 * n)
  p.set(a)
  p.set(b.map((v, i) => (i % 3 === 0 ? v + 0.3 : v)), a.length)
  return { p, t: randomBox(rng, n, [0.5, 0.4, 0.3]) }
}

/** The WasmObjective over p and t, with both clouds' Voronoi cells when `withCells`. */
function wasmObjective(p: Float64Array, t: Float64Array, withCells: boolean): WasmObjective {
  const treeP = new KdTree(p), treeT = new KdTree(t)
  return new WasmObjective(treeP, treeT, withCells ? [buildVoronoiCells(treeP), buildVoronoiCells(treeT)] : undefined)
}

const IDENTITY = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1])

/** Evaluates JsObjective and both WasmObjectives over the same transforms; every f and sum must agree bit for bit. */
function expectSameEvaluations(p: Float64Array, t: Float64Array, translations: number[][]): void {
  const js = new JsObjective(new KdTree(p), new KdTree(t))
  for (const withCells of [false, true]) {
    const wasm = wasmObjective(p, t, withCells)
    js.reset()
    wasm.reset()
    const sumsJs = new Float64Array(15), sumsWasm = new Float64Array(15)
    for (const translation of translations) {
      const trans = new Float64Array(translation)
      expect(Object.is(wasm.evaluate(IDENTITY, trans, sumsWasm), js.evaluate(IDENTITY, trans, sumsJs))).toBe(true)
      expect(Array.from(sumsWasm)).toEqual(Array.from(sumsJs))
      expect(wasm.takeTies()).toBe(js.takeTies())
    }
  }
}

describe.each([false, true])('WasmObjective (cells: %s)', withCells => {
  it('gives the same objective and Kabsch sums as JsObjective, bit for bit, across warm evaluations', () => {
    const { p, t } = clouds(7, 600)
    const js = new JsObjective(new KdTree(p), new KdTree(t))
    const wasm = wasmObjective(p, t, withCells)
    const rng = seededRandom(11)
    const sumsJs = new Float64Array(15), sumsWasm = new Float64Array(15)
    for (let round = 0; round < 3; round++) {
      js.reset()
      wasm.reset()
      // A drifting transform: small steps reuse certificates, the jumps force fresh searches from stale hints.
      const q = randomQuaternion(rng)
      for (let step = 0; step < 12; step++) {
        const angle = step % 5 === 4 ? 0.5 : 0.01
        const rot = quaternionToMatrix(new Float64Array(9), [q[0]! + angle * step, q[1]!, q[2]!, q[3]!])
        const trans = new Float64Array([0.02 * step, -0.01 * step, step % 3 === 0 ? 2 : 0])
        const fJs = js.evaluate(rot, trans, sumsJs)
        const fWasm = wasm.evaluate(rot, trans, sumsWasm)
        expect(Object.is(fWasm, fJs), `round ${round} step ${step}: ${fWasm} vs ${fJs}`).toBe(true)
        expect(Array.from(sumsWasm)).toEqual(Array.from(sumsJs))
      }
    }
  })

})

describe('IcpContext', () => {
  it('gives identical start results with every kernel', () => {
    const { p, t } = clouds(3, 1000)
    const starts = alignmentStarts(p, t)
    const js = new IcpContext(p, t, 'js')
    const others = [new IcpContext(p, t, 'wasm'), new IcpContext(p, t, 'cells')]
    for (const start of starts) {
      const want = js.runStart(start)
      for (const context of others) expect(context.runStart(start)).toEqual(want)
    }
  })

  it('handles one-point and two-point clouds (no second neighbour, no cells) like the JS kernel', () => {
    const starts = alignmentStarts(randomBox(seededRandom(1), 4, [1, 0.5, 0.2]), randomBox(seededRandom(2), 4, [1, 0.5, 0.2]))
    for (const [p, t] of [
      [[0.1, 0.2, 0.3], [-0.4, 0.5, 0.25]],
      [[0.1, 0.2, 0.3, 0.1, 0.2, 0.3], [-0.4, 0.5, 0.25, 0.3, 0.1, 0.2]],
    ]) {
      const want = new IcpContext(p!, t!, 'js').runStart(starts[0]!)
      for (const kernel of ['wasm', 'cells'] as const) expect(new IcpContext(p!, t!, kernel).runStart(starts[0]!)).toEqual(want)
    }
  })

  it('takes prebuilt cells only for the cells kernel and only before the first start', () => {
    const { p, t } = clouds(2, 40)
    const wasm = new IcpContext(p, t, 'wasm')
    expect(() => wasm.useCells([buildVoronoiCells(wasm.treeP), buildVoronoiCells(wasm.treeT)])).toThrow(/takes no cells/)
    const cells = new IcpContext(p, t, 'cells')
    cells.runStart(alignmentStarts(p, t)[0]!)
    expect(() => cells.useCells([buildVoronoiCells(cells.treeP), buildVoronoiCells(cells.treeT)])).toThrow(/already exists/)
  })
})

describe('exact ties (the cell walk must hand over to the KD search, whose hint decides, like JsObjective)', () => {
  // Target a = (1,0,0) and b = (−1,0,0), mirror images about x = 0, plus four far points; p0 starts next to a or b,
  // and the second evaluation moves it onto x = 0, equidistant from a and b bit for bit.
  const target = new Float64Array([1, 0, 0, -1, 0, 0, 0, 5, 0, 0, -5, 0, 0, 0, 5, 0, 0, -5])
  for (const side of [1, -1]) {
    it(`keeps the warm hint ${side > 0 ? 'a' : 'b'} on a tie at the hint`, () => {
      const p = new Float64Array([0.9 * side, 0.1, 0.2, 0.3, 4, 0.1, -0.2, -4.1, 0.3, 0.1, 0.2, 4.2, 0.2, -0.1, -3.9, 0.4, 0.3, 0.2])
      expect(0.9 * side - 0.9 * side).toBe(0)
      expectSameEvaluations(p, target, [[0, 0, 0], [-0.9 * side, 0, 0]])
    })
  }
  it('handles a tie met after a walk step (hint c = (3,0,0), walk c → a, a and b tie)', () => {
    const t = new Float64Array([1, 0, 0, -1, 0, 0, 0, 5, 0, 0, -5, 0, 0, 0, 5, 3, 0, 0])
    const p = new Float64Array([2.9, 0.1, 0.2, 0.3, 4, 0.1, -0.2, -4.1, 0.3, 0.1, 0.2, 4.2, 0.2, -0.1, -3.9, 0.4, 0.3, 0.2])
    expectSameEvaluations(p, t, [[0, 0, 0], [-2.9, 0, 0]])
  })
  it('handles a cloud with exact duplicate points (no cells there) and a regular grid (many ties)', () => {
    const grid: number[] = []
    for (let x = 0; x < 6; x++) for (let y = 0; y < 6; y++) for (let z = 0; z < 3; z++) grid.push(x * 0.1, y * 0.1, z * 0.1)
    const duplicated = Float64Array.from([...grid.slice(0, 3 * 54), ...grid.slice(0, 3 * 54)])
    const shifted = Float64Array.from(grid, (v, i) => v + (i % 3 === 0 ? 0.05 : 0))
    expectSameEvaluations(shifted, duplicated, [[0, 0, 0], [0.05, 0.05, 0.05], [0.0001, 0, 0], [0.3, 0.2, 0.1]])
    expectSameEvaluations(duplicated, shifted, [[0, 0, 0], [0.05, 0.05, 0.05], [0.0001, 0, 0]])
  })
  it('counts the queries a tie answered, in both kernels (takeTies)', () => {
    const grid: number[] = []
    for (let x = 0; x < 4; x++) for (let y = 0; y < 4; y++) grid.push(x * 0.1, y * 0.1, 0)
    const duplicated = Float64Array.from([...grid, ...grid])
    const js = new JsObjective(new KdTree(duplicated), new KdTree(duplicated))
    const wasm = wasmObjective(duplicated, duplicated, true)
    for (const objective of [js, wasm]) {
      objective.reset()
      objective.evaluate(IDENTITY, new Float64Array([0.001, 0, 0]), new Float64Array(15))
      // Every query of both directions meets its point's duplicate at the same distance.
      expect(objective.takeTies()).toBe(2 * duplicated.length / 3)
      expect(objective.takeTies()).toBe(0)
    }
  })
})

describe('the committed kernel', () => {
  it('is what the pinned AssemblyScript compiles from the kernel source (run `npm run build:wasm` when this fails)', async () => {
    const wasm = await compileIcpKernel(ROOT)
    expect(Buffer.from(wasm).toString('base64')).toBe(ICP_KERNEL_BASE64)
  }, 60_000)
})
