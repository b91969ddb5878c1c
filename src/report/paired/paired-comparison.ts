// Compares a run with a baseline run on the samples both attempted: per-sample deltas, SR wins/losses/ties with an
// exact McNemar test, PA/SCD paired bootstrap intervals and a one-line verdict; pure, rows in, data out.
import type { MetricsRow } from '../../evaluate/index.ts'
import { mcnemarExact, pairedBootstrap95 } from './paired-stats.ts'

/** The official row fields the comparison reads (scoring.md §9.2). */
export type PairedInputRow = Pick<MetricsRow, 'block' | 'sample_id' | 'status' | 'SR' | 'PA' | 'SCD'>

export interface PairedSample {
  key: string
  block: string
  sample_id: string
  run: { SR: number; PA: number; SCD: number | null }
  baseline: { SR: number; PA: number; SCD: number | null }
  /** SR change: `win` (0 → 1), `loss` (1 → 0) or `tie`. */
  outcome: 'win' | 'loss' | 'tie'
  delta: { SR: number; PA: number; SCD: number | null }
}

export interface PairedComparison {
  /** Samples present in both runs. */
  paired: number
  only_in_run: string[]
  only_in_baseline: string[]
  SR: { run: number | null; baseline: number | null; delta: number | null; wins: number; losses: number; ties: number; mcnemar_p: number }
  PA: { run: number | null; baseline: number | null; delta: number | null; ci95: [number, number] | null }
  /**
   * Over samples scored in both runs (SCD is undefined for error rows), so `run`, `baseline` and `delta` are means
   * over the same pairs and `delta = run − baseline`; lower is better. Null when no sample was scored in both.
   */
  SCD: { paired: number; run: number | null; baseline: number | null; delta: number | null; ci95: [number, number] | null }
  samples: PairedSample[]
  /** `better`, `worse` or `no-significant-change` at the 5 % level (SR by McNemar, PA by its interval). */
  verdict: 'better' | 'worse' | 'no-significant-change'
  /** A line usable as a PR comment. */
  verdict_line: string
}

/** Significance level of the verdict and of the vs-baseline gate. */
export const PAIRED_ALPHA = 0.05

const keyOf = (row: { block: string; sample_id: string }) => `${row.block}/${row.sample_id}`
const mean = (values: readonly number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length)

export function comparePaired(run: readonly PairedInputRow[], baseline: readonly PairedInputRow[]): PairedComparison {
  const base = new Map(baseline.map(row => [keyOf(row), row]))
  const ours = new Set(run.map(keyOf))
  const samples: PairedSample[] = run.flatMap((row) => {
    const other = base.get(keyOf(row))
    if (other === undefined) return []
    const outcome = row.SR > other.SR ? 'win' : row.SR < other.SR ? 'loss' : 'tie'
    return [{
      key: keyOf(row), block: row.block, sample_id: row.sample_id,
      run: { SR: row.SR, PA: row.PA, SCD: row.SCD },
      baseline: { SR: other.SR, PA: other.PA, SCD: other.SCD },
      outcome,
      delta: { SR: row.SR - other.SR, PA: row.PA - other.PA, SCD: row.SCD === null || other.SCD === null ? null : row.SCD - other.SCD },
    } satisfies PairedSample]
  })
  const wins = samples.filter(s => s.outcome === 'win').length
  const losses = samples.filter(s => s.outcome === 'loss').length
  const paDiffs = samples.map(s => s.delta.PA)
  // SCD pairs: samples scored in both runs. Its means are taken over these pairs only (an error row has no SCD), not
  // over every paired sample as SR and PA are.
  const scdPairs = samples.flatMap(s => (s.run.SCD === null || s.baseline.SCD === null ? [] : [{ run: s.run.SCD, baseline: s.baseline.SCD, delta: s.run.SCD - s.baseline.SCD }]))
  const scdDiffs = scdPairs.map(pair => pair.delta)
  const comparison: Omit<PairedComparison, 'verdict' | 'verdict_line'> = {
    paired: samples.length,
    only_in_run: run.map(keyOf).filter(key => !base.has(key)),
    only_in_baseline: baseline.map(keyOf).filter(key => !ours.has(key)),
    SR: { run: mean(samples.map(s => s.run.SR)), baseline: mean(samples.map(s => s.baseline.SR)), delta: mean(samples.map(s => s.delta.SR)), wins, losses, ties: samples.length - wins - losses, mcnemar_p: mcnemarExact(wins, losses) },
    PA: { run: mean(samples.map(s => s.run.PA)), baseline: mean(samples.map(s => s.baseline.PA)), delta: mean(paDiffs), ci95: pairedBootstrap95(paDiffs) },
    SCD: { paired: scdPairs.length, run: mean(scdPairs.map(pair => pair.run)), baseline: mean(scdPairs.map(pair => pair.baseline)), delta: mean(scdDiffs), ci95: pairedBootstrap95(scdDiffs) },
    samples,
  }
  const verdict = verdictOf(comparison)
  return { ...comparison, verdict, verdict_line: verdictLine(comparison, verdict) }
}

function verdictOf(c: Omit<PairedComparison, 'verdict' | 'verdict_line'>): PairedComparison['verdict'] {
  const srSignificant = c.SR.mcnemar_p < PAIRED_ALPHA
  const paUp = c.PA.ci95 !== null && c.PA.ci95[0] > 0
  const paDown = c.PA.ci95 !== null && c.PA.ci95[1] < 0
  const worse = (srSignificant && c.SR.wins < c.SR.losses) || (paDown && !(srSignificant && c.SR.wins > c.SR.losses))
  const better = (srSignificant && c.SR.wins > c.SR.losses) || (paUp && !(srSignificant && c.SR.wins < c.SR.losses))
  return worse ? 'worse' : better ? 'better' : 'no-significant-change'
}

const signed = (v: number | null, digits: number) => (v === null ? '—' : `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)}`)
const interval = (ci: [number, number] | null, digits: number) => (ci === null ? '' : ` [${signed(ci[0], digits)}, ${signed(ci[1], digits)}]`)

function verdictLine(c: Omit<PairedComparison, 'verdict' | 'verdict_line'>, verdict: PairedComparison['verdict']): string {
  const word = { better: '**better**', worse: '**worse**', 'no-significant-change': 'no significant change' }[verdict]
  const sr = `SR ${signed(c.SR.delta === null ? null : 100 * c.SR.delta, 1)} pts (${c.SR.wins} wins, ${c.SR.losses} losses, ${c.SR.ties} ties; exact McNemar p = ${c.SR.mcnemar_p.toPrecision(3)})`
  const pa = `PA ${signed(c.PA.delta, 3)}${interval(c.PA.ci95, 3)}`
  const scd = `SCD ${signed(c.SCD.delta, 4)}${interval(c.SCD.ci95, 4)}`
  const unpaired = c.only_in_run.length + c.only_in_baseline.length > 0 ? `; ${c.only_in_run.length + c.only_in_baseline.length} unpaired samples left out` : ''
  return `vs baseline, ${c.paired} paired samples: ${word} — ${sr}, ${pa}, ${scd} (95 % paired bootstrap)${unpaired}.`
}
