// Exact McNemar test and a seeded paired bootstrap interval of a mean difference; pure math, no I/O.
import { mulberry32 } from '../../shared/mulberry32.ts'

/**
 * Two-sided exact McNemar p-value for `wins` (baseline fail → run success) and `losses` (the reverse): the
 * binomial test of min(wins, losses) out of wins + losses at p = ½, doubled and capped at 1. No discordant
 * pair gives 1.
 */
export function mcnemarExact(wins: number, losses: number): number {
  const n = wins + losses
  if (n === 0) return 1
  const k = Math.min(wins, losses)
  // Σ_{i ≤ k} C(n, i) / 2^n, with the binomial coefficients built incrementally in floating point (n ≤ a few hundred).
  let term = 0.5 ** n
  let tail = term
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i
    tail += term
  }
  return Math.min(1, 2 * tail)
}

/** Resamples of the paired bootstrap. */
export const BOOTSTRAP_RESAMPLES = 10_000
/** Fixed seed: the interval is a function of the data only. */
export const BOOTSTRAP_SEED = 0x5eed17

/**
 * Percentile 95 % interval of the mean of `differences` (run − baseline per sample) over resamples of the
 * pairs with replacement. Null for no pairs.
 */
export function pairedBootstrap95(differences: readonly number[], resamples = BOOTSTRAP_RESAMPLES, seed = BOOTSTRAP_SEED): [number, number] | null {
  const n = differences.length
  if (n === 0) return null
  const random = mulberry32(seed)
  const means = new Float64Array(resamples)
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += differences[Math.floor(random() * n)]!
    means[r] = sum / n
  }
  means.sort()
  return [means[Math.floor(0.025 * resamples)]!, means[Math.ceil(0.975 * resamples) - 1]!]
}
