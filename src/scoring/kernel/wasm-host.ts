// What every host of an embedded WebAssembly kernel needs: compiling the base64 module once per thread, and planning
// the kernel's memory with a bump allocator before growing it once. No kernel-specific knowledge.
import { base64ToBytes } from '../../shared/base64.ts'

/** WebAssembly memory page size (bytes). */
export const WASM_PAGE = 65536

const compiled = new Map<string, WebAssembly.Module>()

/**
 * The module embedded as `base64`, compiled once per thread. Synchronous on purpose: the kernels are a few KB, and
 * scoring runs in Node (browsers limit synchronous compilation on their main thread to 4 KB).
 */
export function embeddedModule(base64: string): WebAssembly.Module {
  let module = compiled.get(base64)
  if (module === undefined) {
    module = new WebAssembly.Module(base64ToBytes(base64))
    compiled.set(base64, module)
  }
  return module
}

/** Bump allocator over a kernel's memory, 8-byte aligned, from the address given; the layout is planned first, then memory grows once. */
export class MemoryLayout {
  size: number

  constructor(size: number) {
    this.size = size
  }

  /** Reserves `bytes` and returns their address. */
  take(bytes: number): number {
    const at = this.size
    this.size += (bytes + 7) & ~7
    return at
  }
}

/** Copies a typed array's bytes into the memory `buffer` at `address`. */
export function copyInto(buffer: ArrayBuffer, address: number, part: ArrayBufferView): void {
  new Uint8Array(buffer, address, part.byteLength).set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength))
}
