// The data one report page embeds (Node writes it, the page reads it); types only, shared by both sides.
import type { CurveFigures, CurveStep } from '../../evaluate/curves/index.ts'
import type { PairedComparison } from '../paired/index.ts'
import type { SealVerdict } from '../../runs/index.ts'
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
  /** Its records checked: the seal's verdict (null: no recorded attempt found). */
  seal?: SealVerdict | null
  /** What is wrong with its records (a failed seal, or a metrics.jsonl row unlike the sealed result.json); null when nothing. */
  integrity?: string | null
}

/** The run's records as checked when the report was written. */
export interface ReportRecords {
  /** Samples whose seal held. */
  sealed: number
  /** Samples with no seal in a run made before seals (their files cannot be checked). */
  unsealed: number
  /** One line per sample whose records are not to be trusted: which run, sample and file, what differs. */
  flagged: string[]
}

export interface ReportData {
  title: string
  run: string
  generated_at: string
  samples: ReportSample[]
  comparison: PairedComparison | null
  /** The records check (absent in reports written before seals). */
  records?: ReportRecords
}
