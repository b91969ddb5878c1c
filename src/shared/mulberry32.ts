// Mulberry32: a small seeded generator, so every seeded sample (the GPU calibration and self-test, the paired
// bootstrap, test and bench clouds) is the same bits on every machine. Pure and page-safe; defined once here.

/** The raw stream: uniform 32-bit unsigned integers. */
export function mulberry32Uint32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
}

/** Uniform floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  const next = mulberry32Uint32(seed)
  return () => next() / 4294967296
}
