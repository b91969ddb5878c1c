// The data one report page embeds (Node writes it, the page reads it); types only, shared by both sides.
import type { CurveFigures, CurveStep } from '../../evaluate/curves/index.ts'
import type { PairedComparison } from '../paired/index.ts'
import type { ViewerScene } from './scene-data.ts'

export interface ReportSample {
  key: string
  block: string
  sample_id: string
  status: 'scored' | 'error'
  error: string | null
  SR: number
  PA: number
  SCD: number | null
  parts_correct: number | null
  parts_total: number | null
  tool_calls: number | null
  duration_seconds: number | null
  /** Relative paths (inside the report folder) of the final capture and the reference pages. */
  capture: string | null
  /** `final`: capture_scene rendered on the final episode when the report was written; `agent-last`: the agent's own last capture. */
  capture_kind: 'final' | 'agent-last' | null
  pages: string[]
  steps: CurveStep[]
  figures: CurveFigures | null
  /** Why there is no curve or viewer, when there is none. */
  curve_error: string | null
  scene: ViewerScene | null
  /** Per-sample paired delta against the baseline, when one was given. */
  baseline: { SR: number; PA: number; SCD: number | null } | null
}

export interface ReportData {
  title: string
  run: string
  generated_at: string
  samples: ReportSample[]
  comparison: PairedComparison | null
}
