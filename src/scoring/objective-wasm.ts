// The ICP objective in WebAssembly: lays two KdTrees, optionally their Voronoi cells, and the per-query warm state out
// in the kernel's memory and calls its `evaluate`; same bits as JsObjective (the kernel is a port of it plus the exact
// cell shortcut). Kernel source: kernel/assembly/.
import type { VoronoiCells } from './cells.ts'
import type { KdTree, KdTreeArrays } from './kd-tree.ts'
import { ICP_KERNEL_BASE64 } from './kernel/icp-kernel.wasm.ts'
import type { IcpObjective } from './objective.ts'
import { MemoryLayout, WASM_PAGE, copyInto, embeddedModule } from './kernel/wasm-host.ts'

interface KernelExports {
  memory: WebAssembly.Memory
  configure(target: number, prediction: number, forward: number, backward: number, sums: number, stack: number, stackDist: number): void
  configureCells(target: number, prediction: number): void
  evaluate(r0: number, r1: number, r2: number, r3: number, r4: number, r5: number, r6: number, r7: number, r8: number, t0: number, t1: number, t2: number): number
  takeTies(): number
}

// Fixed part of the memory map (bytes). Tree headers hold 13 i32 words: the 12 of TREE_* in kd-search.ts, then T_POINTS;
// query-side headers hold 3 (hint, radius, origin); cells headers 5 (start, nbr, nbrXyz, noCell, box). The search
// stack takes 2·levels + 4 entries; 256 covers any tree.
const TREE_T_HEADER = 0
const TREE_P_HEADER = 64
const SIDE_F_HEADER = 128
const SIDE_B_HEADER = 144
const SUMS = 160
const CELLS_T_HEADER = 288
const CELLS_P_HEADER = 320
const STACK = 1024
const STACK_DIST = 2048
const DATA = 4096

/** Arrays copied into the kernel's memory; the header gets `words` then the arrays' addresses, as i32. */
interface PlacedBlock {
  header: number
  words: number[]
  parts: ArrayBufferView[]
  offsets: number[]
}

/** The 11 arrays of a tree, in the order of the kernel's tree header. */
function treeParts(a: KdTreeArrays): ArrayBufferView[] {
  return [a.nodeStart, a.nodeEnd, a.boxes, a.splitAxis, a.splitValue, a.xs, a.ys, a.zs, a.leafOf, a.nextOf, a.points]
}

/**
 * The 5 arrays of a cloud's cells, in the order of the kernel's cells header, S_j laid out in pairs for the kernel's
 * two-lane scan: start (S_j's first pair, n + 1), nbr (2 per pair), coordinates (x₀ x₁ y₀ y₁ z₀ z₁ per pair), noCell,
 * box. An odd S_j pads its last pair's lane 1 with +∞ coordinates and nbr −1 (distance +∞: never nearer, never chosen).
 */
function cellParts(c: VoronoiCells): ArrayBufferView[] {
  const pairStart = new Int32Array(c.size + 1)
  let pairs = 0
  for (let j = 0; j < c.size; j++) {
    pairStart[j] = pairs
    pairs += (c.start[j + 1]! - c.start[j]! + 1) >> 1
  }
  pairStart[c.size] = pairs
  const pairNbr = new Int32Array(Math.max(1, 2 * pairs)).fill(-1)
  const pairXyz = new Float64Array(Math.max(1, 6 * pairs)).fill(Infinity)
  for (let j = 0; j < c.size; j++) {
    const first = c.start[j]!
    for (let e = first; e < c.start[j + 1]!; e++) {
      const slot = 2 * pairStart[j]! + (e - first)
      const at = 6 * (slot >> 1) + (slot & 1)
      pairNbr[slot] = c.nbr[e]!
      pairXyz[at] = c.nbrXyz[3 * e]!
      pairXyz[at + 2] = c.nbrXyz[3 * e + 1]!
      pairXyz[at + 4] = c.nbrXyz[3 * e + 2]!
    }
  }
  return [pairStart, pairNbr, pairXyz, c.noCell, c.box]
}

/** The objective of objective.ts computed by the WebAssembly kernel; one instance (and memory) per context. */
export class WasmObjective implements IcpObjective {
  private readonly kernel: KernelExports
  private readonly hints: Int32Array[]
  private readonly sumsView: Float64Array

  /**
   * `treeP` over the centred prediction, `treeT` over the centred target (equal sizes); `cells` = [cells of treeP,
   * cells of treeT] (cells.ts) turns on the exact cell shortcut, which changes speed, never results.
   */
  constructor(treeP: KdTree, treeT: KdTree, cells?: readonly [VoronoiCells, VoronoiCells]) {
    const layout = new MemoryLayout(DATA)
    const place = (header: number, words: number[], parts: ArrayBufferView[]): PlacedBlock =>
      ({ header, words, parts, offsets: parts.map(part => layout.take(part.byteLength)) })
    const blocks = [treeT, treeP].map((tree, k) => {
      const arrays = tree.arrays()
      return place(k === 0 ? TREE_T_HEADER : TREE_P_HEADER, [arrays.size, arrays.firstLeaf], treeParts(arrays))
    })
    if (cells !== undefined) {
      if (cells[0].size !== treeP.size || cells[1].size !== treeT.size) throw new RangeError('WasmObjective: cells do not match the trees')
      blocks.push(place(CELLS_T_HEADER, [], cellParts(cells[1])), place(CELLS_P_HEADER, [], cellParts(cells[0])))
    }
    const n = treeP.size
    const sides = [SIDE_F_HEADER, SIDE_B_HEADER].map(header => ({ header, hint: layout.take(4 * n), radius: layout.take(8 * n), origin: layout.take(24 * n) }))

    const kernel = new WebAssembly.Instance(embeddedModule(ICP_KERNEL_BASE64), {}).exports as unknown as KernelExports
    kernel.memory.grow(Math.ceil(layout.size / WASM_PAGE))
    const buffer = kernel.memory.buffer
    const words = new Int32Array(buffer)
    for (const { header, words: first, parts, offsets } of blocks) {
      parts.forEach((part, k) => copyInto(buffer, offsets[k]!, part))
      words.set([...first, ...offsets], header / 4)
    }
    for (const side of sides) words.set([side.hint, side.radius, side.origin], side.header / 4)
    kernel.configure(TREE_T_HEADER, TREE_P_HEADER, SIDE_F_HEADER, SIDE_B_HEADER, SUMS, STACK, STACK_DIST)
    if (cells !== undefined) kernel.configureCells(CELLS_T_HEADER, CELLS_P_HEADER)
    this.kernel = kernel
    this.hints = sides.map(side => new Int32Array(buffer, side.hint, n))
    this.sumsView = new Float64Array(buffer, SUMS, 15)
  }

  reset(): void {
    for (const hint of this.hints) hint.fill(-1)
  }

  takeTies(): number {
    return this.kernel.takeTies()
  }

  evaluate(r: Float64Array, t: Float64Array, sums: Float64Array): number {
    const f = this.kernel.evaluate(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, r[6]!, r[7]!, r[8]!, t[0]!, t[1]!, t[2]!)
    sums.set(this.sumsView)
    return f
  }
}
