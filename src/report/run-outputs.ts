// Node only: what a finished Vitest run adds beside its official files — the comparison with a baseline run
// (AWB_BASELINE, with the vs_baseline gate), metrics.arrow, per-step curves (AWB_CURVES=1) and the HTML report.
import * as z from 'zod'
import { computeRunCurves } from '../evaluate/curves/index.ts'
import { createScorer } from '../evaluate/index.ts'
import { readMetricsRows, writeCurves, writeMetricsArrow } from './columnar/index.ts'
import type { GateResult, Gates } from './gates.ts'
import { buildReport } from './html/index.ts'
import { checkBaselineGate, comparePaired, formatComparisonMarkdown, type PairedInputRow } from './paired/index.ts'
import { ReportError } from './errors.ts'

const FlagSchema = z.enum(['0', '1', 'true', 'false', '']).optional().transform(value => value === '1' || value === 'true')

/** AWB_CURVES (score every recorded step; off by default: it costs one official score per state), AWB_BASELINE, AWB_REPORT (default on). */
export const RunOutputSettingsSchema = z.object({
  AWB_CURVES: FlagSchema,
  AWB_BASELINE: z.string().min(1).optional(),
  AWB_REPORT: z.enum(['0', '1', 'true', 'false', '']).optional().transform(value => value !== '0' && value !== 'false'),
})

export type RunOutputSettings = z.infer<typeof RunOutputSettingsSchema>

export function runOutputSettings(env: Record<string, string | undefined>): RunOutputSettings {
  const parsed = RunOutputSettingsSchema.safeParse(env)
  if (!parsed.success) throw new ReportError('REPORT_INPUT_INVALID', `${String(parsed.error.issues[0]?.path[0] ?? '')}: ${parsed.error.issues[0]?.message ?? 'invalid'} (use 1 or 0)`)
  return parsed.data
}

export interface BaselineSection {
  markdown: string
  gates: GateResult[]
  verdictLine: string | null
}

/** The paired comparison with AWB_BASELINE (empty without one) and the vs_baseline gate results. */
export async function compareWithBaseline(rows: readonly PairedInputRow[], settings: RunOutputSettings, gates: Gates): Promise<BaselineSection> {
  if (settings.AWB_BASELINE === undefined) return { markdown: '', gates: gates.vs_baseline === undefined ? [] : checkBaselineGate(null, gates.vs_baseline), verdictLine: null }
  let baseline
  try {
    baseline = await readMetricsRows(settings.AWB_BASELINE)
    if (baseline === undefined) throw new ReportError('REPORT_INPUT_MISSING', 'AWB_BASELINE has no metrics.jsonl; point it at a finished run directory', { file: settings.AWB_BASELINE })
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
    markdown: `\n${formatComparisonMarkdown(comparison, settings.AWB_BASELINE)}`,
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
  const scorer = settings.AWB_CURVES ? createScorer() : undefined
  try {
    if (scorer !== undefined) {
      const curves = await computeRunCurves({ runDir, scorer })
      const paths = await writeCurves(runDir, curves)
      const { cost } = curves
      log(`awb: wrote ${paths.join(', ')} (${cost.steps} steps, ${cost.states_scored} states scored in ${cost.seconds.toFixed(1)} s: ${(cost.steps === 0 ? 0 : cost.seconds / cost.steps).toFixed(2)} s per step)`)
    }
    if (!settings.AWB_REPORT) return undefined
    return (await buildReport({ runDir, baselineDir: settings.AWB_BASELINE, scorer: undefined })).path
  } finally {
    await scorer?.close()
  }
}
