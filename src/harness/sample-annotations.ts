// A sample's per-test figures (JUnit properties): the block suite shows them in the page, and the aggregate reporter
// writes the same figures from Node's ledger over every annotation the page made. Page-safe; no I/O.
import type { SampleMeta } from './sample-messages.ts'

export interface SampleAnnotation {
  type: string
  message: string
}

/** The figures of one sample, the same for a sample run now and one a resumed run reports. */
export function sampleAnnotations(meta: SampleMeta, where: { capture?: string | undefined } = {}): SampleAnnotation[] {
  const { row, timings } = meta
  const parts = row.status === 'scored' ? row.parts : []
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const annotations: SampleAnnotation[] = [
    { type: 'SR', message: format(row.SR) },
    { type: 'PA', message: format(row.PA) },
    { type: 'SCD', message: format(row.SCD) },
    { type: 'parts_correct', message: `${parts.filter(part => part.correct).length}/${parts.length}` },
    { type: 'tool_calls', message: String(row.tool_calls ?? 0) },
    { type: 'overhead_seconds', message: seconds(timings.openMs + timings.exportMs + timings.saveMs) },
    { type: 'agent_seconds', message: seconds(timings.agentMs) },
    { type: 'scoring_seconds', message: seconds(timings.scoreMs) },
    // Of scoring_seconds: waiting for the scoring pool shared by every block project, and the backend's own work.
    { type: 'scoring_queue_seconds', message: seconds(timings.scoreQueueMs) },
    { type: 'scoring_compute_seconds', message: seconds(timings.scoreComputeMs) },
    { type: 'scoring_backend', message: meta.backend },
  ]
  if (meta.recordedBy !== undefined) annotations.push({ type: 'recorded_by', message: meta.recordedBy })
  if (where.capture !== undefined) annotations.push({ type: 'capture', message: where.capture })
  return annotations
}

function format(value: number | null): string {
  return value === null ? 'null' : String(value)
}
