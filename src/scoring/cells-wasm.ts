// Voronoi neighbour sets S_j built by the WebAssembly cell kernel: lays a KdTree and the builder's scratch out in the
// kernel's memory and calls its `build` per point; the same sets, in the same order, as CellBuilder in cells.ts (the
// kernel is a port of it). Kernel source: kernel/assembly/cells-kernel.ts.
import { buildVoronoiCells, cellParameters, type CellRange, type CellRangeBuilder, type VoronoiCells } from './cells.ts'
import type { KdTree } from './kd-tree.ts'
import { CELLS_KERNEL_BASE64 } from './kernel/cells-kernel.wasm.ts'
import { MemoryLayout, WASM_PAGE, copyInto, embeddedModule } from './kernel/wasm-host.ts'

interface KernelExports {
  memory: WebAssembly.Memory
  scratchBytes(): number
  configure(header: number, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, shift: number, halfGap: number, dup2: number): void
  build(j: number): number
}

// Memory map (bytes): the header of 18 i32 words at 0 (TREE_* of kernel/assembly/kd-search.ts, then the kernel's
// H_*), then the tree's arrays, the per-point scratch, the kernel's fixed scratch, and last the pool of ball lists,
// which the kernel grows on demand.
const HEADER = 0
const DATA = 1024
/** Initial pool: far more than a typical point's ball lists (a few thousand entries). */
const POOL_BYTES = 1 << 20

/** Builds S_j for points of one tree with one kernel instance (and memory). */
export class WasmCellBuilder implements CellRangeBuilder {
  private readonly kernel: KernelExports
  private readonly out: number
  private readonly size: number

  /** `poolBytes`: initial room for the per-vertex ball lists (the kernel grows memory past it on demand; tests shrink it). */
  constructor(tree: KdTree, poolBytes = POOL_BYTES) {
    const a = tree.arrays()
    const n = a.size
    this.size = n
    const kernel = new WebAssembly.Instance(embeddedModule(CELLS_KERNEL_BASE64), {}).exports as unknown as KernelExports
    const layout = new MemoryLayout(DATA)
    // The tree's arrays, in the order of the kernel's header.
    const parts = [a.nodeStart, a.nodeEnd, a.boxes, a.splitAxis, a.splitValue, a.xs, a.ys, a.zs, a.leafOf, a.nextOf]
    const offsets = parts.map(part => layout.take(part.byteLength))
    const processed = layout.take(4 * n)
    const inSet = layout.take(4 * n)
    const sortD = layout.take(8 * (n + 1))
    this.out = layout.take(4 * n)
    const scratch = layout.take(kernel.scratchBytes())
    // The pool ends where memory ends, so it holds exactly `poolBytes` before the kernel has to grow memory.
    const pages = Math.ceil((layout.size + poolBytes) / WASM_PAGE)
    const pool = (pages * WASM_PAGE - poolBytes) & ~7
    kernel.memory.grow(pages)
    const buffer = kernel.memory.buffer
    parts.forEach((part, k) => copyInto(buffer, offsets[k]!, part))
    // processed / inSet start at 0 (fresh memory); the kernel's stamps start at 1.
    new Int32Array(buffer, HEADER, 18).set([n, a.firstLeaf, ...offsets, processed, inSet, sortD, this.out, scratch, pool])
    const { box, shift, halfGap, dup2 } = cellParameters(tree)
    kernel.configure(HEADER, box[0]!, box[1]!, box[2]!, box[3]!, box[4]!, box[5]!, shift, halfGap, dup2)
    this.kernel = kernel
  }

  /** Current size of the kernel's memory (it grows when a point's ball lists outgrow the pool). */
  memoryBytes(): number {
    return this.kernel.memory.buffer.byteLength
  }

  /** Builds S_j for points [lo, hi) of the tree: counts[k] = |S_{lo+k}| or −1 for no cell; nbr = the lists concatenated. */
  buildRange(lo: number, hi: number): CellRange {
    if (!(Number.isInteger(lo) && Number.isInteger(hi) && 0 <= lo && lo <= hi && hi <= this.size)) {
      throw new RangeError(`buildRange(${lo}, ${hi}): expected 0 ≤ lo ≤ hi ≤ ${this.size}`)
    }
    const { kernel, out } = this
    const counts = new Int32Array(hi - lo)
    let nbr = new Int32Array(Math.max(64, 48 * (hi - lo)))
    let total = 0
    for (let j = lo; j < hi; j++) {
      const count = kernel.build(j)
      counts[j - lo] = count
      if (count <= 0) continue
      if (total + count > nbr.length) {
        const grown = new Int32Array(Math.max(2 * nbr.length, total + count))
        grown.set(nbr.subarray(0, total))
        nbr = grown
      }
      // The kernel may have grown its memory (a new buffer), so view it afresh.
      nbr.set(new Int32Array(kernel.memory.buffer, out, count), total)
      total += count
    }
    return { counts, nbr: nbr.slice(0, total) }
  }
}

/** Same as buildVoronoiCells(tree) in cells.ts, built by the kernel. */
export function buildVoronoiCellsWasm(tree: KdTree): VoronoiCells {
  return buildVoronoiCells(tree, new WasmCellBuilder(tree))
}
