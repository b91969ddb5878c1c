// `eval`: selects the attempt per sample across run chains, scores each into a row, aggregates, writes outputs.
import { resolve } from 'node:path'
import pLimit from 'p-limit'
import { openPackage, type BenchmarkPackage } from '../package/index.ts'
import { readRunChain, runVersions, selectAttempts, type RunRecord } from '../runs/index.ts'
import { PACKAGE_ROOT } from '../shared/package-root.ts'
import { EvaluateError } from './errors.ts'
import { summarize, type BenchmarkLayout, type Summary } from '../scoring/index.ts'
import { attemptRow } from './attempt-row.ts'
import type { MetricsRow } from './rows/index.ts'
import { OUTPUT_PROTOCOL } from './score-final-episode.ts'
import { assertNewOutputDir, writeOutputDir } from './output-dir.ts'
import { createScorer, type SampleScorer } from './scorer/create-scorer.ts'

export interface EvaluateRunsOptions {
  runDirs: readonly string[]
  packageDir: string
  /** A new directory for `metrics.jsonl` and `summary.json`, outside every run and the package. */
  outputDir: string
  /** Scoring backend; default: worker threads on every core. The caller closes a scorer it passed. */
  scorer?: SampleScorer
  /** Called after each row, in the order rows finish (progress output). */
  onRow?: (row: MetricsRow, done: number, total: number) => void
  /**
   * Samples prepared and scored at once; default: the scorer's `samplesAtOnce` once its backend is chosen (1 on the
   * CPU, a batch on the GPU), one at a time before that.
   */
  concurrency?: number
  /** More files for the output directory, made from the finished rows and written in the same atomic step. */
  extraFiles?: (rows: readonly MetricsRow[], summary: Summary) => Readonly<Record<string, string | Uint8Array>> | Promise<Readonly<Record<string, string | Uint8Array>>>
}

export interface EvaluateRunsResult {
  rows: MetricsRow[]
  summary: Summary
  outputDir: string
}

/** The output file saying how the rows were made (the official rows and summary have no place for it). */
export const EVALUATION_RECORD = 'eval.json'

/**
 * What made this evaluation: the package, the runs read, the versions, and the scoring backend actually used with
 * the reason it was chosen, so a reader can tell a `cpu-cells` output from a `gpu-gpujs:hardware` one.
 */
function evaluationRecord(pkg: BenchmarkPackage, runDirs: readonly string[], scorer: SampleScorer) {
  return {
    protocol: OUTPUT_PROTOCOL,
    created_at: new Date().toISOString(),
    benchmark: pkg.root,
    runs: runDirs.map(dir => resolve(dir)),
    scoring: { backend: scorer.backend, kernel: scorer.kernel, workers: scorer.workers, decision: scorer.decision ?? null },
    versions: runVersions(PACKAGE_ROOT),
  }
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
  const concurrency = () => options.concurrency ?? scorer.samplesAtOnce
  const limit = pLimit(concurrency())
  let done = 0
  let rows: MetricsRow[]
  try {
    // Rows keep the selection's order whatever order they finish in (attemptRow never throws for a sample).
    rows = await Promise.all(selected.map(one => limit(async () => {
      const row = await attemptRow(one, pkg, scorer)
      // The first scored sample chooses the backend (auto): from then on, as many samples as it can take at once.
      limit.concurrency = concurrency()
      options.onRow?.(row, ++done, selected.length)
      return row
    })))
  } finally {
    if (options.scorer === undefined) await scorer.close()
  }
  const summary = summarize(rows, benchmarkLayout(pkg), { protocol: OUTPUT_PROTOCOL })
  const record = evaluationRecord(pkg, [...runDirs], scorer)
  await writeOutputDir(options.outputDir, {
    'metrics.jsonl': rows.map(row => JSON.stringify(row)).join('\n') + (rows.length > 0 ? '\n' : ''),
    'summary.json': `${JSON.stringify(summary, null, 2)}\n`,
    [EVALUATION_RECORD]: `${JSON.stringify(record, null, 2)}\n`,
    ...(await options.extraFiles?.(rows, summary)),
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
