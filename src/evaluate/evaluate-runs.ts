// `eval`: selects the attempt per sample across run chains, scores each into a row, aggregates, writes outputs.
import { openPackage, type BenchmarkPackage } from '../package/index.ts'
import { readRunChain, selectAttempts, type RunRecord } from '../runs/index.ts'
import { EvaluateError } from './errors.ts'
import { summarize, type BenchmarkLayout, type Summary } from '../scoring/index.ts'
import { attemptRow } from './attempt-row.ts'
import type { MetricsRow } from './rows/index.ts'
import { OUTPUT_PROTOCOL } from './score-final.ts'
import { assertNewOutputDir, writeOutputDir } from './output-dir.ts'
import { createScorer, type SampleScorer } from './scorer/sample-scorer.ts'

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
  await assertSelectionsInPackage(options.runDirs, pkg)
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

/**
 * Every run of every chain must have been made on this package: a selection naming a block or sample the package
 * does not have means another package (or a hand-edited run.json), and its rows would be scored against nothing.
 */
async function assertSelectionsInPackage(runDirs: readonly string[], pkg: BenchmarkPackage): Promise<void> {
  const cache = new Map<string, RunRecord>()
  const blocks = new Map(pkg.blocks.map(block => [block.name, new Set(block.samples.map(sample => sample.id))]))
  for (const dir of runDirs) {
    for (const run of await readRunChain(dir, cache)) {
      for (const [block, sampleIds] of Object.entries(run.json.selection ?? {})) {
        const known = blocks.get(block)
        if (known === undefined) {
          throw new EvaluateError('EVALUATE_RUN_MISMATCH', `run.json selects block ${JSON.stringify(block)}, which is not in the package ${pkg.root} (blocks: ${[...blocks.keys()].join(', ')}); evaluate with the package the run was made on`, { file: run.dir })
        }
        const unknown = sampleIds.filter(id => !known.has(id))
        if (unknown.length > 0) {
          throw new EvaluateError('EVALUATE_RUN_MISMATCH', `run.json selects ${unknown.map(id => JSON.stringify(id)).join(', ')} in block ${block}, not in the package ${pkg.root}; evaluate with the package the run was made on`, { file: run.dir })
        }
      }
    }
  }
}
