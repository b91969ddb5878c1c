// The "vs_baseline" gate: fails a run that is significantly worse than its baseline by more than a margin; no I/O.
import type { BaselineGate, GateResult } from '../gate-schemas.ts'
import { PAIRED_ALPHA, type PairedComparison } from './paired-comparison.ts'

/**
 * SR fails when the mean paired SR change is below the margin and the exact McNemar test is significant
 * (p < 0.05, losses outnumbering wins); PA fails when its whole 95 % interval lies below the margin; SCD when
 * its whole interval lies above it. Without paired samples the gate is `not-measured`.
 */
export function checkBaselineGate(comparison: PairedComparison | null, gate: BaselineGate): GateResult[] {
  const results: GateResult[] = []
  const notMeasured = (text: string) => results.push({ gate: text, measured: null, status: 'not-measured' })
  if (gate.SR !== undefined) {
    const text = `vs_baseline SR change ≥ ${gate.SR} (unless not significant)`
    const delta = comparison?.SR.delta ?? null
    if (comparison === null || delta === null) notMeasured(text)
    else {
      const worse = delta < gate.SR && comparison.SR.mcnemar_p < PAIRED_ALPHA && comparison.SR.losses > comparison.SR.wins
      results.push({ gate: text, measured: delta, status: worse ? 'failed' : 'passed' })
    }
  }
  if (gate.PA !== undefined) {
    const text = `vs_baseline PA change ≥ ${gate.PA} (95 % interval)`
    const ci = comparison?.PA.ci95 ?? null
    if (comparison === null || ci === null) notMeasured(text)
    else results.push({ gate: text, measured: comparison.PA.delta, status: ci[1] < gate.PA ? 'failed' : 'passed' })
  }
  if (gate.SCD !== undefined) {
    const text = `vs_baseline SCD change ≤ ${gate.SCD} (95 % interval)`
    const ci = comparison?.SCD.ci95 ?? null
    if (comparison === null || ci === null) notMeasured(text)
    else results.push({ gate: text, measured: comparison.SCD.delta, status: ci[0] > gate.SCD ? 'failed' : 'passed' })
  }
  return results
}
