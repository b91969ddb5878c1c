// The WebAssembly ICP kernel against the JS reference: same objective bits, same sums, same ICP results; kernel fresh.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { IcpContext, KdTree, alignmentStarts, quaternionToMatrix } from '../../../src/scoring/index.ts'
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

describe('WasmObjective', () => {
  it('gives the same objective and Kabsch sums as JsObjective, bit for bit, across warm evaluations', () => {
    const { p, t } = clouds(7, 600)
    const js = new JsObjective(new KdTree(p), new KdTree(t))
    const wasm = new WasmObjective(new KdTree(p), new KdTree(t))
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

  it('makes IcpContext give identical start results with either kernel', () => {
    const { p, t } = clouds(3, 1000)
    const starts = alignmentStarts(p, t)
    const js = new IcpContext(p, t, 'js')
    const wasm = new IcpContext(p, t, 'wasm')
    for (const start of starts) {
      expect(wasm.runStart(start)).toEqual(js.runStart(start))
    }
  })

  it('handles a one-point cloud (no second neighbour) like the JS kernel', () => {
    const p = new Float64Array([0.1, 0.2, 0.3]), t = new Float64Array([-0.4, 0.5, 0.25])
    const starts = alignmentStarts(randomBox(seededRandom(1), 4, [1, 0.5, 0.2]), randomBox(seededRandom(2), 4, [1, 0.5, 0.2]))
    const js = new IcpContext(p, t, 'js')
    const wasm = new IcpContext(p, t, 'wasm')
    expect(wasm.runStart(starts[0]!)).toEqual(js.runStart(starts[0]!))
  })
})

describe('the committed kernel', () => {
  it('is what the pinned AssemblyScript compiles from the kernel source (run `npm run build:wasm` when this fails)', async () => {
    const wasm = await compileIcpKernel(ROOT)
    expect(Buffer.from(wasm).toString('base64')).toBe(ICP_KERNEL_BASE64)
  }, 60_000)
})
