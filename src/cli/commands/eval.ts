// `awb eval RUN… --benchmark DIR --output NEW`: scores recorded runs into metrics.jsonl and summary.json.
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
  if (flags.benchmark === undefined) throw new UsageError('eval needs --benchmark <package-dir> (the package the runs were made on)')
  if (flags.output === undefined) throw new UsageError('eval needs --output <new-dir> for metrics.jsonl and summary.json')
  const scorer = createScorer({
    ...(flags.workers === undefined ? {} : { workers: flags.workers }),
    ...(flags.kernel === undefined ? {} : { kernel: flags.kernel }),
    backend: scoringBackend(flags.backend),
  })
  const { rows, summary, outputDir } = await evaluateRuns({
    runDirs,
    scorer,
    packageDir: flags.benchmark,
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
