// The ICP objective in WebAssembly: lays two KdTrees and the per-query warm state out in the kernel's memory and
// calls its `evaluate`; same bits as JsObjective (the kernel is a port of it). Kernel source: kernel/assembly/.
import type { KdTree, KdTreeArrays } from './kd-tree.ts'
import { ICP_KERNEL_BASE64 } from './kernel/icp-kernel.wasm.ts'
import type { IcpObjective } from './objective.ts'

interface KernelExports {
  memory: WebAssembly.Memory
  configure(target: number, prediction: number, forward: number, backward: number, sums: number, stack: number, stackDist: number): void
  evaluate(r0: number, r1: number, r2: number, r3: number, r4: number, r5: number, r6: number, r7: number, r8: number, t0: number, t1: number, t2: number): number
}

// Fixed part of the memory map (bytes). Tree headers hold 13 i32 words in the order the kernel's T_* offsets expect;
// query-side headers hold 3 (hint, radius, origin). The search stack takes 2·levels + 4 entries; 256 covers any tree.
const TREE_T_HEADER = 0
const TREE_P_HEADER = 64
const SIDE_F_HEADER = 128
const SIDE_B_HEADER = 144
const SUMS = 160
const STACK = 1024
const STACK_DIST = 2048
const DATA = 4096
const PAGE = 65536

let compiled: WebAssembly.Module | undefined

/** The kernel module, compiled once per thread (synchronous: it is 3 KB). */
function kernelModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(Uint8Array.from(atob(ICP_KERNEL_BASE64), c => c.charCodeAt(0)))
  return compiled
}

/** Bump allocator over the kernel's memory, 8-byte aligned; the layout is planned first, then memory grows once. */
class Layout {
  size = DATA
  take(bytes: number): number {
    const at = this.size
    this.size += (bytes + 7) & ~7
    return at
  }
}

interface PlacedTree {
  header: number
  arrays: KdTreeArrays
  offsets: number[]
}

/** The 11 arrays of a tree, in the order of the kernel's tree header. */
function treeParts(a: KdTreeArrays): ArrayBufferView[] {
  return [a.nodeStart, a.nodeEnd, a.boxes, a.splitAxis, a.splitValue, a.xs, a.ys, a.zs, a.leafOf, a.nextOf, a.points]
}

/** The objective of objective.ts computed by the WebAssembly kernel; one instance (and memory) per context. */
export class WasmObjective implements IcpObjective {
  private readonly kernel: KernelExports
  private readonly hints: Int32Array[]
  private readonly sumsView: Float64Array

  /** `treeP` over the centred prediction, `treeT` over the centred target (equal sizes). */
  constructor(treeP: KdTree, treeT: KdTree) {
    const layout = new Layout()
    const place = (header: number, tree: KdTree): PlacedTree => {
      const arrays = tree.arrays()
      return { header, arrays, offsets: treeParts(arrays).map(part => layout.take(part.byteLength)) }
    }
    const target = place(TREE_T_HEADER, treeT)
    const prediction = place(TREE_P_HEADER, treeP)
    const n = treeP.size
    const sides = [SIDE_F_HEADER, SIDE_B_HEADER].map(header => ({ header, hint: layout.take(4 * n), radius: layout.take(8 * n), origin: layout.take(24 * n) }))

    const kernel = new WebAssembly.Instance(kernelModule(), {}).exports as unknown as KernelExports
    kernel.memory.grow(Math.ceil(layout.size / PAGE))
    const buffer = kernel.memory.buffer
    const words = new Int32Array(buffer)
    for (const { header, arrays, offsets } of [target, prediction]) {
      treeParts(arrays).forEach((part, k) => new Uint8Array(buffer, offsets[k]!, part.byteLength).set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength)))
      words.set([arrays.size, arrays.firstLeaf, ...offsets], header / 4)
    }
    for (const side of sides) words.set([side.hint, side.radius, side.origin], side.header / 4)
    kernel.configure(TREE_T_HEADER, TREE_P_HEADER, SIDE_F_HEADER, SIDE_B_HEADER, SUMS, STACK, STACK_DIST)
    this.kernel = kernel
    this.hints = sides.map(side => new Int32Array(buffer, side.hint, n))
    this.sumsView = new Float64Array(buffer, SUMS, 15)
  }

  reset(): void {
    for (const hint of this.hints) hint.fill(-1)
  }

  evaluate(r: Float64Array, t: Float64Array, sums: Float64Array): number {
    const f = this.kernel.evaluate(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, r[6]!, r[7]!, r[8]!, t[0]!, t[1]!, t[2]!)
    sums.set(this.sumsView)
    return f
  }
}
