// `eval`: selects the attempt per sample across run chains, scores each into a row, aggregates, writes outputs.
import { openPackage, type BenchmarkPackage } from '../package/index.ts'
import { selectAttempts } from '../runs/index.ts'
import { summarize, type BenchmarkLayout, type Summary } from '../scoring/index.ts'
import { attemptRow, type MetricsRow } from './attempt-row.ts'
import { OUTPUT_PROTOCOL } from './score-final.ts'
import { assertNewOutputDir, writeOutputDir } from './output-dir.ts'
import { createScorer, type SampleScorer } from './sample-scorer.ts'

export interface EvaluateRunsOptions {
  runDirs: readonly string[]
  packageDir: string
  /** A new directory for `metrics.jsonl` and `summary.json`, outside every run and the package. */
  outputDir: string
  /** Scoring backend; default: worker threads on every core. The caller closes a scorer it passed. */
  scorer?: SampleScorer
  /** Called after each row (progress output). */
  onRow?: (row: MetricsRow, done: number, total: number) => void
}

export interface EvaluateRunsResult {
  rows: MetricsRow[]
  summary: Summary
  outputDir: string
}

/** The package's blocks as the aggregation sees them: names, sources and declared sample ids, in order. */
export function benchmarkLayout(pkg: BenchmarkPackage): BenchmarkLayout {
  return { sources: pkg.sources, blocks: pkg.blocks.map(block => ({ name: block.name, source: block.source, sampleIds: block.samples.map(s => s.id) })) }
}

export async function evaluateRuns(options: EvaluateRunsOptions): Promise<EvaluateRunsResult> {
  const pkg = await openPackage(options.packageDir)
  const selected = await selectAttempts(options.runDirs)
  const runDirs = new Set([...options.runDirs, ...selected.flatMap(s => (s.attempt === undefined ? [] : [s.attempt.run]))])
  await assertNewOutputDir(options.outputDir, [...runDirs, pkg.root])
  const scorer = options.scorer ?? createScorer()
  const rows: MetricsRow[] = []
  try {
    for (const one of selected) {
      const row = await attemptRow(one, pkg, scorer)
      rows.push(row)
      options.onRow?.(row, rows.length, selected.length)
    }
  } finally {
    if (options.scorer === undefined) await scorer.close()
  }
  const summary = summarize(rows, benchmarkLayout(pkg), { protocol: OUTPUT_PROTOCOL })
  await writeOutputDir(options.outputDir, {
    'metrics.jsonl': rows.map(row => JSON.stringify(row)).join('\n') + (rows.length > 0 ? '\n' : ''),
    'summary.json': `${JSON.stringify(summary, null, 2)}\n`,
  })
  return { rows, summary, outputDir: options.outputDir }
}
