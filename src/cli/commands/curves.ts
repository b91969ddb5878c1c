// `awb curves RUN [--benchmark DIR] [--workers N]`: scores the world after every recorded call of each sample and
// writes curves.json, steps.arrow and metrics.arrow into the run directory.
import * as z from 'zod'
import { computeRunCurves, isFailedCurve } from '../../evaluate/curves/index.ts'
import { createScorer } from '../../evaluate/index.ts'
import { sampleKey } from '../../package/index.ts'
import { readMetricsRows, writeCurves, writeMetricsArrow } from '../../report/columnar/index.ts'
import { BackendFlagSchema, KernelFlagSchema, scoringBackend, parseFlags, WorkersFlagSchema } from '../flags.ts'
import { UsageError } from '../usage-error.ts'

const CurvesFlagsSchema = z.looseObject({
  benchmark: z.string().optional(),
  workers: WorkersFlagSchema,
  kernel: KernelFlagSchema,
  backend: BackendFlagSchema,
})

export async function run(args: unknown[]): Promise<number> {
  const flags = parseFlags('curves', CurvesFlagsSchema, args.at(-1))
  const runDir = z.string().optional().catch(undefined).parse(args[0])
  if (runDir === undefined) throw new UsageError('curves needs a run directory: awb curves runs/<run-id>')
  const scorer = createScorer({
    ...(flags.workers === undefined ? {} : { workers: flags.workers }),
    ...(flags.kernel === undefined ? {} : { kernel: flags.kernel }),
    backend: scoringBackend(flags.backend),
  })
  const curves = await computeRunCurves({
    runDir,
    packageDir: flags.benchmark,
    scorer,
    onSample: (curve, done, total) => {
      const outcome = isFailedCurve(curve)
        ? `no curve: ${curve.error}`
        : `${curve.steps.length} steps, ${curve.cost.states_scored} states in ${curve.cost.scoring_seconds.toFixed(2)} s; final SR ${curve.figures.final_SR} PA ${curve.figures.final_PA?.toFixed(3)}, best SR ${curve.figures.best_SR} PA ${curve.figures.best_PA?.toFixed(3)}${curve.figures.regressed ? ' (regressed)' : ''}`
      process.stderr.write(`[${done}/${total}] ${curve.block} ${curve.sample_id}: ${outcome}\n`)
    },
  }).finally(() => scorer.close())
  const paths = await writeCurves(curves.run, curves)
  const rows = await readMetricsRows(curves.run)
  if (rows !== undefined) paths.push(await writeMetricsArrow(curves.run, rows))
  const mismatches = rows === undefined ? [] : finalMismatches(curves, rows)
  for (const line of mismatches) process.stderr.write(`warning: ${line}\n`)
  const { cost } = curves
  process.stderr.write(`wrote ${paths.join(', ')}\n`)
  process.stdout.write(`${JSON.stringify({ samples: curves.samples.length, failed: curves.samples.filter(isFailedCurve).length, ...cost, seconds_per_step: cost.steps === 0 ? null : cost.seconds / cost.steps, seconds_per_state: cost.states_scored === 0 ? null : cost.scoring_seconds / cost.states_scored })}\n`)
  return curves.samples.some(isFailedCurve) || mismatches.length > 0 ? 1 : 0
}

/** Samples whose last step differs from the official row (it never should: same scorer, same state). */
function finalMismatches(curves: Awaited<ReturnType<typeof computeRunCurves>>, rows: NonNullable<Awaited<ReturnType<typeof readMetricsRows>>>): string[] {
  const byKey = new Map(rows.map(row => [sampleKey(row.block, row.sample_id), row]))
  return curves.samples.flatMap((curve) => {
    if (isFailedCurve(curve)) return []
    const row = byKey.get(sampleKey(curve.block, curve.sample_id))
    const last = curve.steps.at(-1)
    if (row === undefined || last === undefined || row.status !== 'scored') return []
    const same = last.SR === row.SR && last.PA === row.PA && last.SCD === row.SCD
    return same ? [] : [`${curve.block} ${curve.sample_id}: last step (SR ${last.SR}, PA ${last.PA}, SCD ${last.SCD}) differs from metrics.jsonl (SR ${row.SR}, PA ${row.PA}, SCD ${row.SCD})`]
  })
}
