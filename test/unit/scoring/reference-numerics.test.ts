// The reference's numerics reproduced bit for bit: emulated FMA, LAPACK dsyevd for 3×3, and the PCA frame built
// from them, each against values recorded from the reference environment (numpy 1.24.4 / scipy 1.10.1, see
// scripts/oracle/pca_oracle.py) and against the mathematics (orthonormal, eigen-equation, exact rounding).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { exactFusedMultiplyAdd, fusedMultiplyAdd } from '../../../src/scoring/fma.ts'
import { lapackSymmetricEigen3 } from '../../../src/scoring/lapack-eigen.ts'
import { pcaFrame } from '../../../src/scoring/index.ts'
import { seededRandom } from './synthetic.ts'

interface Oracle {
  fma: [number, number, number, number | 'Infinity' | '-Infinity'][]
  eigen: { matrix: number[]; values: number[]; vectors: number[] }[]
  frames: { points: number[]; center: number[]; basis: number[] }[]
}
const oracle = JSON.parse(readFileSync(new URL('./data/pca-oracle.json', import.meta.url), 'utf8')) as Oracle

/** Bitwise equality, except that ±0 compare equal where the reference's sign of zero is not observable. */
function sameBits(actual: ArrayLike<number>, expected: ArrayLike<number>): boolean {
  if (actual.length !== expected.length) return false
  for (let i = 0; i < actual.length; i++) if (!(Object.is(actual[i], expected[i]) || (actual[i] === 0 && expected[i] === 0))) return false
  return true
}

describe('fusedMultiplyAdd', () => {
  it('rounds a·b + c once, as computed exactly by the oracle (cancellation, huge, tiny, subnormal, overflow)', () => {
    const wrong: unknown[] = []
    for (const [a, b, c, raw] of oracle.fma) {
      const want = raw === 'Infinity' ? Infinity : raw === '-Infinity' ? -Infinity : raw
      const fast = fusedMultiplyAdd(a, b, c), exact = exactFusedMultiplyAdd(a, b, c)
      if (!Object.is(fast, want) || !Object.is(exact, want)) wrong.push({ a, b, c, want, fast, exact })
    }
    expect(wrong).toEqual([])
    expect(oracle.fma.length).toBeGreaterThan(400)
  })

  it('agrees with the exact integer route on 200 000 random and near-cancelling operands', () => {
    const rng = seededRandom(11)
    const scaled = (): number => (rng() - 0.5) * 2 ** Math.floor(rng() * 80 - 40)
    let mismatches = 0
    for (let i = 0; i < 200_000; i++) {
      const a = scaled(), b = scaled()
      const c = i % 3 === 0 ? scaled() : i % 3 === 1 ? -(a * b) : -(a * b) * (1 + (rng() - 0.5) * 2 ** -44)
      if (!Object.is(fusedMultiplyAdd(a, b, c), exactFusedMultiplyAdd(a, b, c))) mismatches++
    }
    expect(mismatches).toBe(0)
  })

  it('differs from the unfused a*b + c exactly where one rounding instead of two shows', () => {
    expect(0.1 * 10 - 1).toBe(0)
    expect(fusedMultiplyAdd(0.1, 10, -1)).toBe(5.551115123125783e-17)
    expect(fusedMultiplyAdd(Infinity, 1, 1)).toBe(Infinity)
    expect(Number.isNaN(fusedMultiplyAdd(Infinity, 0, 1))).toBe(true)
  })
})

describe('lapackSymmetricEigen3', () => {
  it('reproduces scipy.linalg.eigh(driver="evd") bit for bit on every recorded matrix', () => {
    const wrong = oracle.eigen.filter((c) => {
      const r = lapackSymmetricEigen3(c.matrix)
      return !sameBits(r.values, c.values) || !sameBits(r.vectors, c.vectors)
    })
    expect(wrong.map(c => c.matrix)).toEqual([])
    expect(oracle.eigen.length).toBeGreaterThan(300)
  })

  it('returns ascending eigenvalues and an orthonormal basis satisfying A v = λ v', () => {
    const rng = seededRandom(5)
    for (let t = 0; t < 500; t++) {
      const m = Array.from({ length: 6 }, () => (rng() - 0.5) * 10 ** Math.floor(rng() * 6 - 3))
      const a = [m[0]!, m[1]!, m[2]!, m[1]!, m[3]!, m[4]!, m[2]!, m[4]!, m[5]!]
      const { values, vectors } = lapackSymmetricEigen3(a)
      expect(values[0]!).toBeLessThanOrEqual(values[1]!)
      expect(values[1]!).toBeLessThanOrEqual(values[2]!)
      const scale = Math.max(...a.map(Math.abs))
      for (let k = 0; k < 3; k++) {
        for (let j = 0; j < 3; j++) {
          const dot = vectors[k]! * vectors[j]! + vectors[3 + k]! * vectors[3 + j]! + vectors[6 + k]! * vectors[6 + j]!
          expect(Math.abs(dot - (k === j ? 1 : 0))).toBeLessThan(1e-14)
        }
        for (let r = 0; r < 3; r++) {
          const av = a[3 * r]! * vectors[k]! + a[3 * r + 1]! * vectors[3 + k]! + a[3 * r + 2]! * vectors[6 + k]!
          expect(Math.abs(av - values[k]! * vectors[3 * r + k]!)).toBeLessThan(1e-13 * scale)
        }
      }
    }
  })

  it('rejects non-finite entries and norms outside the path it reproduces', () => {
    expect(() => lapackSymmetricEigen3([NaN, 0, 0, 0, 1, 0, 0, 0, 1])).toThrow(/non-finite/)
    expect(() => lapackSymmetricEigen3([1e200, 0, 0, 0, 1, 0, 0, 0, 1])).toThrow(/outside the reproduced range/)
    expect(Array.from(lapackSymmetricEigen3([0, 0, 0, 0, 0, 0, 0, 0, 0]).vectors)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1])
  })
})

describe('pcaFrame against the reference environment', () => {
  it('reproduces centre and basis bit for bit on every recorded cloud (8–1000 points, near-orthogonal first points, tied boxes)', () => {
    const wrong = oracle.frames.map((c, index) => ({ index, frame: pcaFrame(c.points), c }))
      .filter(({ frame, c }) => !sameBits(frame.center, c.center) || !sameBits(frame.basis, c.basis))
      .map(({ index, c }) => ({ index, points: c.points.length / 3 }))
    expect(wrong).toEqual([])
    expect(oracle.frames.length).toBeGreaterThan(90)
  })
})
