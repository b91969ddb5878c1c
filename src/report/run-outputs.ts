// Node only: what a finished Vitest run adds beside its official files — the comparison with a baseline run
// (AWB_BASELINE, with the vs_baseline gate), metrics.arrow, per-step curves (AWB_CURVES=1) and the HTML report.
import { computeRunCurves } from '../evaluate/curves/index.ts'
import { createScorer } from '../evaluate/index.ts'
import type { ScoringBackendChoice } from '../scoring/gpu/index.ts'
import { readMetricsRows, writeCurves, writeMetricsArrow } from './columnar/index.ts'
import type { GateResult, Gates } from './gates.ts'
import { buildReport } from './html/index.ts'
import { checkBaselineGate, comparePaired, formatComparisonMarkdown, type PairedInputRow } from './paired/index.ts'
import { ReportError } from './errors.ts'

/** What a finished run writes beside its official files: resolved at start (src/settings), plain values here. */
export interface RunOutputSettings {
  /** Score every recorded step (AWB_CURVES=1); off by default: it costs one official score per state. */
  curves: boolean
  /** The finished run directory to compare with (AWB_BASELINE); undefined: no comparison. */
  baseline: string | undefined
  /** Write the HTML report (AWB_REPORT, default on). */
  report: boolean
  /** The backend of the curves' scorer (AWB_SCORING_BACKEND). */
  scoringBackend: ScoringBackendChoice
}

export interface BaselineSection {
  markdown: string
  gates: GateResult[]
  verdictLine: string | null
}

/** The paired comparison with AWB_BASELINE (empty without one) and the vs_baseline gate results. */
export async function compareWithBaseline(rows: readonly PairedInputRow[], settings: Pick<RunOutputSettings, 'baseline'>, gates: Gates): Promise<BaselineSection> {
  if (settings.baseline === undefined) return { markdown: '', gates: gates.vs_baseline === undefined ? [] : checkBaselineGate(null, gates.vs_baseline), verdictLine: null }
  let baseline
  try {
    baseline = await readMetricsRows(settings.baseline)
    if (baseline === undefined) throw new ReportError('REPORT_INPUT_MISSING', 'AWB_BASELINE has no metrics.jsonl; point it at a finished run directory', { file: settings.baseline })
  } catch (error) {
    // A baseline that cannot be read fails its gate (when one is set) instead of passing it silently.
    const message = error instanceof Error ? error.message : String(error)
    return {
      markdown: `\n### vs baseline\n\nThe baseline could not be read: ${message}\n`,
      gates: gates.vs_baseline === undefined ? [] : [{ gate: `vs_baseline (baseline unreadable: ${message})`, measured: null, status: 'failed' }],
      verdictLine: `baseline comparison skipped: ${message}`,
    }
  }
  const comparison = comparePaired(rows, baseline)
  return {
    markdown: `\n${formatComparisonMarkdown(comparison, settings.baseline)}`,
    gates: gates.vs_baseline === undefined ? [] : checkBaselineGate(comparison, gates.vs_baseline),
    verdictLine: comparison.verdict_line,
  }
}

/**
 * After summary.json / metrics.jsonl: writes metrics.arrow, the curves when asked, and the report. Returns the
 * report's path (undefined when off). Throws on failure; the caller reports it without failing the run.
 */
export async function writeRunOutputs(runDir: string, settings: RunOutputSettings, log: (line: string) => void): Promise<string | undefined> {
  const rows = await readMetricsRows(runDir)
  if (rows !== undefined) log(`awb: wrote ${await writeMetricsArrow(runDir, rows)}`)
  const scorer = settings.curves ? createScorer({ backend: settings.scoringBackend }) : undefined
  try {
    if (scorer !== undefined) {
      const curves = await computeRunCurves({ runDir, scorer })
      const paths = await writeCurves(runDir, curves)
      const { cost } = curves
      log(`awb: wrote ${paths.join(', ')} (${cost.steps} steps, ${cost.states_scored} states scored in ${cost.seconds.toFixed(1)} s: ${(cost.steps === 0 ? 0 : cost.seconds / cost.steps).toFixed(2)} s per step)`)
    }
    if (!settings.report) return undefined
    return (await buildReport({ runDir, baselineDir: settings.baseline, scorer: undefined })).path
  } finally {
    await scorer?.close()
  }
}
