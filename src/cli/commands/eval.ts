// `awb eval RUN… [--benchmark DIR] --output NEW`: scores recorded runs into metrics.jsonl and summary.json.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import * as z from 'zod'
import { createScorer, EVALUATION_RECORD, evaluateRuns, type MetricsRow } from '../../evaluate/index.ts'
import { metricsArrow } from '../../report/columnar/index.ts'
import { BackendFlagSchema, KernelFlagSchema, scoringBackend, parseFlags, WorkersFlagSchema } from '../flags.ts'
import { UsageError } from '../usage-error.ts'

const EvalFlagsSchema = z.looseObject({
  benchmark: z.string().optional(),
  output: z.string().optional(),
  workers: WorkersFlagSchema,
  kernel: KernelFlagSchema,
  backend: BackendFlagSchema,
})

export async function run(args: unknown[]): Promise<number> {
  const flags = parseFlags('eval', EvalFlagsSchema, args.at(-1))
  const runDirs = z.array(z.string()).catch([]).parse(args[0])
  if (runDirs.length === 0) throw new UsageError('eval needs at least one run directory')
  if (flags.output === undefined) throw new UsageError('eval needs --output <new-dir> for metrics.jsonl and summary.json')
  // A flag wins; without one, the package the runs recorded (run.json), as `awb curves` and `awb report` do.
  const packageDir = flags.benchmark ?? await recordedPackage(runDirs)
  const scorer = createScorer({
    ...(flags.workers === undefined ? {} : { workers: flags.workers }),
    ...(flags.kernel === undefined ? {} : { kernel: flags.kernel }),
    backend: scoringBackend(flags.backend),
  })
  const { rows, summary, outputDir } = await evaluateRuns({
    runDirs,
    scorer,
    packageDir,
    outputDir: flags.output,
    onRow: (row, done, total) => {
      const outcome = row.status === 'scored' ? `SR ${row.SR} PA ${row.PA.toFixed(3)} SCD ${row.SCD?.toFixed(4)}` : `error: ${row.error}`
      process.stderr.write(`[${done}/${total}] ${row.block} ${row.sample_id}: ${outcome}\n`)
    },
    // The same rows as an Arrow IPC file, written with the others. They pass through JSON first, so both files hold
    // exactly the values metrics.jsonl does.
    extraFiles: async finished => ({ 'metrics.arrow': await metricsArrow(finished.map(row => JSON.parse(JSON.stringify(row)) as MetricsRow)) }),
  }).finally(() => scorer.close())
  const scored = rows.filter(row => row.status === 'scored').length
  process.stderr.write(`wrote ${outputDir}/metrics.jsonl, metrics.arrow, summary.json and ${EVALUATION_RECORD} (${scored}/${rows.length} scored, ${summary.status}; scoring backend ${scorer.backend}: ${scorer.decision?.reason ?? 'no sample reached scoring'})\n`)
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
  return scored === rows.length ? 0 : 1
}

/**
 * The package every given run recorded in run.json (`benchmark.local`, else `options.benchmark`), when they agree and
 * it is still there. Otherwise a usage error that says which run differs or what is missing, and how to go on.
 */
export async function recordedPackage(runDirs: readonly string[]): Promise<string> {
  const { readRun, recordedBenchmark } = await import('../../runs/index.ts')
  const recorded: { run: string; benchmark: string | undefined }[] = []
  for (const dir of runDirs) {
    const run = await readRun(dir)
    const benchmark = recordedBenchmark(run.json)
    recorded.push({ run: run.dir, benchmark: benchmark === undefined ? undefined : resolve(benchmark) })
  }
  const missing = recorded.find(one => one.benchmark === undefined)
  if (missing !== undefined) throw new UsageError(`eval: run ${missing.run} records no benchmark package in run.json; pass --benchmark <package-dir> (the package the runs were made on)`)
  const packages = [...new Set(recorded.map(one => one.benchmark!))]
  if (packages.length > 1) {
    const which = recorded.map(one => `${one.run}: ${one.benchmark!}`).join('; ')
    throw new UsageError(`eval: the runs were made on different packages (${which}); evaluate each package's runs separately, or pass --benchmark <package-dir> to score them all on one`)
  }
  const packageDir = packages[0]!
  if (!existsSync(packageDir)) throw new UsageError(`eval: the package the runs recorded, ${packageDir}, is gone; pass --benchmark <package-dir> where it now lies`)
  return packageDir
}
