// Node only: writes a run's columnar files (metrics.arrow from metrics.jsonl; curves.json and steps.arrow) atomically.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isFailedCurve, type RunCurves } from '../../evaluate/curves/index.ts'
import { describeIssues, MetricsRowSchema, type MetricsRow } from '../../evaluate/index.ts'
import { ReportError } from '../errors.ts'
import { writeFileAtomic } from '../../shared/atomic-write.ts'
import { isNotFoundError } from '../../shared/fs-errors.ts'
import { splitJsonLines } from '../../shared/json-lines.ts'
import { metricsArrow, stepsArrow } from './arrow-tables.ts'

/** Reads and checks `dir/metrics.jsonl`; undefined when the file does not exist. Throws `ReportError` on a bad line. */
export async function readMetricsRows(dir: string): Promise<MetricsRow[] | undefined> {
  const path = join(dir, 'metrics.jsonl')
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    // A run without metrics.jsonl has no rows; one that cannot be read must say so, not pass for empty.
    if (isNotFoundError(error)) return undefined
    throw new ReportError('REPORT_INPUT_INVALID', `metrics.jsonl cannot be read (${error instanceof Error ? error.message : String(error)}); check its permissions`, { file: path, cause: error })
  }
  return [...splitJsonLines(text)].map(({ line, value, error }) => {
    if (error !== undefined) throw new ReportError('REPORT_INPUT_INVALID', `line ${line} is not JSON; metrics.jsonl must hold one official row per line`, { file: path, cause: error })
    const parsed = MetricsRowSchema.safeParse(value)
    if (!parsed.success) throw new ReportError('REPORT_INPUT_INVALID', `line ${line} is not an official metrics row (scoring.md §9.2): ${describeIssues(parsed.error)}`, { file: path })
    return parsed.data
  })
}

/** Writes `metrics.arrow` next to `metrics.jsonl` (same rows, same order); returns its path. */
export async function writeMetricsArrow(dir: string, rows: readonly MetricsRow[]): Promise<string> {
  const path = join(dir, 'metrics.arrow')
  await writeFileAtomic(path, await metricsArrow(rows))
  return path
}

/** Writes `curves.json` (every sample's steps, figures, states and costs) and `steps.arrow`; returns their paths. */
export async function writeCurves(dir: string, curves: RunCurves): Promise<string[]> {
  const json = join(dir, 'curves.json')
  const arrow = join(dir, 'steps.arrow')
  await writeFileAtomic(json, `${JSON.stringify(curves, null, 1)}\n`)
  const steps = curves.samples.flatMap(sample => (isFailedCurve(sample) ? [] : sample.steps.map(step => ({ block: sample.block, sample_id: sample.sample_id, ...step }))))
  await writeFileAtomic(arrow, await stepsArrow(steps))
  return [json, arrow]
}
