// Node only: writes a run's aggregate files (summary.json, metrics.jsonl, summary.md) atomically.
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../shared/atomic-write.ts'

export interface ReportFiles {
  summary: unknown
  /** Official rows, already sorted. */
  rows: readonly unknown[]
  markdown: string
}

/** Writes the three files into `dir` and returns their paths; appends the Markdown to `stepSummary` when given. */
export async function writeReportFiles(dir: string, files: ReportFiles, stepSummary?: string): Promise<string[]> {
  const paths = [join(dir, 'summary.json'), join(dir, 'metrics.jsonl'), join(dir, 'summary.md')]
  await writeFileAtomic(paths[0]!, `${JSON.stringify(files.summary, null, 2)}\n`)
  await writeFileAtomic(paths[1]!, files.rows.map(row => `${JSON.stringify(row)}\n`).join(''))
  await writeFileAtomic(paths[2]!, files.markdown)
  // GitHub Actions shows this file on the run page; appending keeps other steps' summaries.
  if (stepSummary !== undefined && stepSummary !== '') await appendFile(stepSummary, files.markdown)
  return paths
}
