// Test helper: a JSON string of any value with every number (and typed-array element) written as its float64 bits, so
// toBe on two of them means bit-identical (−0 ≠ +0, NaN payloads aside).
const _view = new DataView(new ArrayBuffer(8))

function numberBits(x: number): string {
  _view.setFloat64(0, x)
  return `f64:${_view.getBigUint64(0).toString(16)}`
}

/** `value` as JSON with every number replaced by its float64 bit pattern. */
export function floatBits(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'number') return numberBits(v)
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>, numberBits)
    return v
  })
}
