// Fused multiply-add, correctly rounded: round(a·b + c) with a single rounding, as the FMA instruction does.
// JavaScript has no Math.fma, yet the reference's BLAS kernels use FMA, and the PCA frame of a cloud whose first
// point is nearly orthogonal to an axis (conformance 07_pca cases 4–6) is only reproducible with the same fused
// roundings. Boldo & Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to
// odd" (IEEE Trans. Computers 57(4), 2008): split a·b exactly, add c exactly, combine the two low parts rounded to
// odd, then one final round-to-nearest. Operands outside the range where the splits are exact take an exact
// BigInt route instead.

const SPLITTER = 134217729 // 2^27 + 1 (Veltkamp split of a 53-bit significand into two 26-bit halves)
// Inside these bounds Dekker's product and the error terms neither overflow nor lose bits to underflow.
const FACTOR_MAX = 2 ** 400
const FACTOR_MIN = 2 ** -400
const TERM_MAX = 2 ** 500
const TERM_MIN = 2 ** -450

const scratch = new Float64Array(1)
const scratchBits = new BigInt64Array(scratch.buffer)

/** round(a·b + c) with one rounding to nearest-even. */
export function fusedMultiplyAdd(a: number, b: number, c: number): number {
  const product = a * b
  if (!Number.isFinite(product) || !Number.isFinite(c) || product === 0 || a === 0 || b === 0) {
    // Exact products (a zero factor) and non-finite operands need no emulation; an overflowing or
    // underflowing product goes through the exact route.
    if (a === 0 || b === 0 || !Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c)) return product + c
    return exactFusedMultiplyAdd(a, b, c)
  }
  if (!inRange(Math.abs(a), FACTOR_MIN, FACTOR_MAX) || !inRange(Math.abs(b), FACTOR_MIN, FACTOR_MAX)
    || !inRange(Math.abs(product), TERM_MIN, TERM_MAX) || (c !== 0 && !inRange(Math.abs(c), TERM_MIN, TERM_MAX))) {
    return exactFusedMultiplyAdd(a, b, c)
  }

  // uh + ul = a·b exactly (Dekker).
  const uh = product
  const ul = productError(a, b, uh)
  // th + tl = c + uh exactly (Knuth's TwoSum).
  const th = c + uh
  const bv = th - c
  const tl = (c - (th - bv)) + (uh - bv)
  // v = round-to-odd(tl + ul); result = round-to-nearest(th + v).
  return th + addRoundToOdd(tl, ul)
}

function inRange(x: number, min: number, max: number): boolean {
  return x >= min && x <= max
}

function productError(a: number, b: number, p: number): number {
  let t = SPLITTER * a
  const ah = t - (t - a), al = a - ah
  t = SPLITTER * b
  const bh = t - (t - b), bl = b - bh
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl
}

/** x + y rounded to odd: exact when representable, else the neighbour whose last significand bit is 1. */
function addRoundToOdd(x: number, y: number): number {
  const s = x + y
  const bv = s - x
  const err = (x - (s - bv)) + (y - bv)
  if (err === 0 || s === 0) return s
  scratch[0] = s
  if ((scratchBits[0]! & 1n) === 1n) return s
  // s is even and inexact: step one unit in the last place towards the exact value.
  const towardsLarger = (err > 0) === (s > 0)
  scratchBits[0] = scratchBits[0]! + (towardsLarger ? 1n : -1n)
  return scratch[0]
}

/** The same result by exact integer arithmetic: slow, any finite operands. */
export function exactFusedMultiplyAdd(a: number, b: number, c: number): number {
  const [ma, ea] = decompose(a), [mb, eb] = decompose(b), [mc, ec] = decompose(c)
  // a·b = ma·mb·2^(ea+eb); align with c on the smaller exponent.
  let mp = ma * mb
  let ep = ea + eb
  let m: bigint, e: number
  if (mc === 0n) {
    m = mp; e = ep
  } else if (mp === 0n) {
    m = mc; e = ec
  } else if (ep <= ec) {
    m = mp + (mc << BigInt(ec - ep)); e = ep
  } else {
    m = (mp << BigInt(ep - ec)) + mc; e = ec
  }
  if (m === 0n) return (a * b) + c // signed zero as IEEE defines it for an exact zero sum
  return roundToDouble(m, e)
}

function decompose(x: number): [bigint, number] {
  if (x === 0) return [0n, 0]
  scratch[0] = x
  const bits = scratchBits[0]!
  const negative = bits < 0n
  const exponentField = Number((bits >> 52n) & 0x7ffn)
  let mantissa = bits & 0xfffffffffffffn
  let exponent: number
  if (exponentField === 0) {
    exponent = -1074
  } else {
    mantissa |= 1n << 52n
    exponent = exponentField - 1075
  }
  return [negative ? -mantissa : mantissa, exponent]
}

/** The double nearest to m·2^e (ties to even). */
function roundToDouble(m: bigint, e: number): number {
  const negative = m < 0n
  let mag = negative ? -m : m
  const bitLength = mag.toString(2).length
  // Keep 53 significant bits, or fewer where the result is subnormal (exponent floor −1074).
  let shift = bitLength - 53
  if (e + shift < -1074) shift = -1074 - e
  if (shift > 0) {
    const dropped = mag & ((1n << BigInt(shift)) - 1n)
    mag >>= BigInt(shift)
    const half = 1n << BigInt(shift - 1)
    if (dropped > half || (dropped === half && (mag & 1n) === 1n)) mag += 1n
    e += shift
  }
  // mag·2^e is now exact in binary64 unless it overflows, which Number() · 2^e reports as ±Infinity.
  const value = Number(mag) * 2 ** e
  const scaled = Number.isFinite(value) && value !== 0 ? value : scaleExact(mag, e)
  return negative ? -scaled : scaled
}

function scaleExact(mag: bigint, e: number): number {
  // Split the power of two so that neither factor overflows or underflows on its own.
  let value = Number(mag)
  while (e > 0) { const step = Math.min(e, 1000); value *= 2 ** step; e -= step }
  while (e < 0) { const step = Math.max(e, -1000); value *= 2 ** step; e -= step }
  return value
}
