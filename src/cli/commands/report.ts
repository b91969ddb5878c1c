// `awb report RUN [--baseline RUN] [--out DIR] [--gates JSON] [--curves]`: writes the static HTML report of a run at
// once (no scoring) and, with a baseline, the paired comparison (comparison.md next to it) and the vs_baseline gate;
// with --curves it then scores every recorded step for the curves, with progress on stderr.
import { join } from 'node:path'
import * as z from 'zod'
import { formatCurvesProgress } from '../../evaluate/curves/index.ts'
import { createScorer } from '../../evaluate/index.ts'
import { buildReport } from '../../report/html/index.ts'
import { checkBaselineGate, formatComparisonMarkdown } from '../../report/paired/index.ts'
import { BaselineGateSchema, formatGateTable, formatGateVerdict } from '../../report/index.ts'
import { readRunChain } from '../../runs/index.ts'
import { writeFileAtomic } from '../../shared/atomic-write.ts'
import { parseFlags, scoringBackend, WorkersFlagSchema } from '../flags.ts'
import { UsageError } from '../usage-error.ts'

const ReportFlagsSchema = z.looseObject({
  baseline: z.string().optional(),
  out: z.string().optional(),
  benchmark: z.string().optional(),
  workers: WorkersFlagSchema,
  gates: z.string().optional(),
  captures: z.boolean().optional(),
  curves: z.boolean().optional(),
})

export async function run(args: unknown[]): Promise<number> {
  const flags = parseFlags('report', ReportFlagsSchema, args.at(-1))
  const runDir = z.string().optional().catch(undefined).parse(args[0])
  if (runDir === undefined) throw new UsageError('report needs a run directory: awb report runs/<run-id> [--baseline runs/<other>]')
  const gate = parseGate(flags.gates)
  if (gate !== undefined && flags.baseline === undefined) throw new UsageError('report: --gates with vs_baseline needs --baseline <run-dir>')
  // Every run the report reads, before anything is written: a merged run's shard runs must lie beside it.
  await readRunChain(runDir)
  // Scoring only when asked: one official score per recorded state took minutes on a 20-sample run, and a run's
  // recorded curves.json is used without it. No --backend here: AWB_SCORING_BACKEND (else auto) picks the backend.
  const scorer = flags.curves === true ? createScorer({ ...(flags.workers === undefined ? {} : { workers: flags.workers }), backend: scoringBackend(undefined) }) : undefined
  // Its workers load while the report without curves is written.
  scorer?.start()
  const built = await buildReport({
    runDir,
    outDir: flags.out,
    baselineDir: flags.baseline,
    packageDir: flags.benchmark,
    scorer,
    onCurvesProgress: progress => process.stderr.write(`awb report: ${formatCurvesProgress(progress)}\n`),
    captures: flags.captures !== false,
    log: line => process.stderr.write(`${line}\n`),
  }).finally(() => scorer?.close())
  process.stderr.write(`awb report: wrote ${built.path} (open it from disk; no server needed)\n`)
  if (built.comparison === null) return 0
  const markdown = formatComparisonMarkdown(built.comparison, flags.baseline!)
  const comparisonPath = join(built.path, '..', 'comparison.md')
  await writeFileAtomic(comparisonPath, markdown)
  process.stderr.write(`awb report: wrote ${comparisonPath}\n`)
  process.stdout.write(`${built.comparison.verdict_line}\n`)
  const results = gate === undefined ? [] : checkBaselineGate(built.comparison, gate)
  if (results.length > 0) process.stderr.write(`${['awb gates', ...formatGateTable(results), formatGateVerdict(results)].join('\n')}\n`)
  return results.some(result => result.status === 'failed') ? 1 : 0
}

function parseGate(text: string | undefined) {
  if (text === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new UsageError('report: --gates must be JSON, e.g. \'{"vs_baseline": {"SR": -0.05}}\'')
  }
  const parsed = z.looseObject({ vs_baseline: BaselineGateSchema.optional() }).safeParse(value)
  if (!parsed.success) throw new UsageError(`report: --gates: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? 'invalid'} (SR and PA margins are drops ≤ 0, SCD a rise ≥ 0)`)
  return parsed.data.vs_baseline
}
