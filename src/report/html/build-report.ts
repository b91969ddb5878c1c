// Node only: writes a run's static HTML report (index.html + assets/) — summary, paired comparison, per-sample
// curves, timeline, pages, last capture and 3D replay. Uses the run's recorded curves; scores them only when given a
// scorer (after writing the report without them); reads ground truth (the report is written after scoring, outside
// any agent's reach).
import { mkdir, readFile, rm } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { decodeEpisode, type Episode } from '../../episode/index.ts'
import { benchmarkLayout, OUTPUT_PROTOCOL, type MetricsRow, type SampleScorer } from '../../evaluate/index.ts'
import { computeRunCurves, isFailedCurve, recordedPackageDir, type CurvesProgress, type RunCurves, type SampleCurve } from '../../evaluate/curves/index.ts'
import { findSample, loadEvaluation, openPackage, readPage, type BenchmarkPackage } from '../../package/index.ts'
import { readRun, selectAttempts, type SelectedAttempt } from '../../runs/index.ts'
import { summarize } from '../../scoring/index.ts'
import { markAnswersFolder } from '../../shared/answer-folders.ts'
import { writeFileAtomic } from '../../shared/atomic-write.ts'
import { systemErrorCode } from '../../shared/fs-errors.ts'
import { sampleKey } from '../../shared/sample-key.ts'
import { readMetricsRows, writeCurves } from '../columnar/index.ts'
import { ReportError } from '../errors.ts'
import { comparePaired, type PairedComparison } from '../paired/index.ts'
import { bundleReportApp } from './bundle-app.ts'
import { readCurvesFile } from './curves-file.ts'
import { renderReportPage } from './render-page.ts'
import type { ReportData, ReportRecords, ReportSample } from './report-types.ts'
import { buildViewerScene } from './scene-data.ts'
import { lastCapture, renderFinalCaptures } from './final-captures.ts'

export interface BuildReportOptions {
  runDir: string
  /** Default `<run>/report`. Replaced when it exists (it holds only a previous report). */
  outDir?: string | undefined
  baselineDir?: string | undefined
  packageDir?: string | undefined
  /**
   * Scores every recorded step for the curves when the run has no curves.json (one official score per state: minutes
   * for a 20-sample run); they are then written into the run. The report is written once without them first, so it
   * is there at once. Without a scorer nothing is scored: a recorded curves.json is used, else each sample's curve
   * panel gives the command that computes it and the replay shows only the final state, placed and coloured from the
   * official row.
   */
  scorer: SampleScorer | undefined
  /** After each sample's curve (with `scorer`): samples and steps done, and the time left. */
  onCurvesProgress?: (progress: CurvesProgress) => void
  /** Render each final scene with capture_scene in headless Chromium (default true); else the agent's last capture. */
  captures?: boolean
  log?: (line: string) => void
}

export interface BuiltReport {
  path: string
  comparison: PairedComparison | null
  baselineRows: MetricsRow[] | null
  /** The records check shown in the report (flagged samples, with what differs). */
  records: ReportRecords
}

const ASSETS = 'assets'
const REPORT_MARKER = 'index.html'

export async function buildReport(options: BuildReportOptions): Promise<BuiltReport> {
  const log = options.log ?? (() => undefined)
  const run = await readRun(options.runDir)
  const rows = await readMetricsRows(run.dir)
  if (rows === undefined) throw new ReportError('REPORT_INPUT_MISSING', 'the run has no metrics.jsonl yet; finish the run, or score it with `awb eval` first', { file: run.dir })
  const pkg = await openPackage(options.packageDir ?? (await recordedPackageDir(run.dir)))
  const recorded = await readCurvesFile(run.dir)
  const baselineRows = options.baselineDir === undefined ? null : await readBaselineRows(options.baselineDir)
  const comparison = baselineRows === null ? null : comparePaired(rows, baselineRows)
  const out = resolve(options.outDir ?? join(run.dir, 'report'))
  await prepareOutDir(out)
  const selected = new Map((await selectAttempts([run.dir])).map(one => [sampleKey(one.block, one.sampleId), one]))
  // A flagged attempt's files are not shown: its replay and capture would present what was planted as the run's.
  const attempts = new Map([...selected].map(([key, one]) => [key, one.seal?.flagged === true ? undefined : one.attempt?.dir]))
  const captures = options.captures === false ? new Map<string, Uint8Array>() : await finalCaptures(rows, attempts, log)
  const layout = benchmarkLayout(pkg)
  const summary = summarize(rows, layout, { protocol: rows.find(row => row.status === 'scored')?.protocol_version ?? OUTPUT_PROTOCOL })
  const script = await bundleReportApp()
  const path = join(out, REPORT_MARKER)
  /** Writes index.html with `curves` (a sample they lack says `missing`) and returns the records check. */
  const writePage = async (curves: RunCurves | undefined, missing: string): Promise<ReportRecords> => {
    const samples: ReportSample[] = []
    for (const row of rows) {
      const key = sampleKey(row.block, row.sample_id)
      const one = selected.get(key)
      const sample = await reportSample(row, pkg, { curves, missing }, attempts.get(key), comparison, out, captures.get(reportKey(row)))
      samples.push({ ...sample, seal: one?.seal?.verdict ?? null, integrity: recordsProblem(row, one) })
    }
    const records = recordsCheck(samples, [...selected.values()])
    const data: ReportData = { title: `AssemblyWorldBench run ${basename(run.dir)}`, run: run.dir, generated_at: new Date().toISOString(), samples, comparison, records }
    await writeFileAtomic(path, renderReportPage({ data, summary, layout, baselineName: options.baselineDir === undefined ? null : basename(resolve(options.baselineDir)), script }))
    return records
  }
  let records: ReportRecords
  if (recorded !== undefined || options.scorer === undefined) {
    records = await writePage(recorded, curvesNotComputed(options.runDir))
  } else {
    // Everything that needs no scoring is written first: the curves take one official score per recorded state.
    await writePage(undefined, 'the curves are being scored (`awb report --curves`); reload this page when the command says it is done')
    log(`awb report: wrote ${path} without curves; now scoring every recorded step for them (awb curves)`)
    const curves = await computeRunCurves({ runDir: run.dir, packageDir: pkg.root, scorer: options.scorer, ...(options.onCurvesProgress === undefined ? {} : { onProgress: options.onCurvesProgress }) })
    await writeCurves(run.dir, curves)
    records = await writePage(curves, 'no per-step curve for this sample in the curves just computed')
  }
  for (const line of records.flagged) log(`awb report: records not trusted: ${line}`)
  return { path, comparison, baselineRows, records }
}

/**
 * What a sample without a curve says when none were computed: the exact commands that compute them, for this run.
 * Not "no recorded calls": a curve not computed says nothing about the calls.
 */
export function curvesNotComputed(runDir: string): string {
  const run = shellWord(runDir)
  return `per-step curves were not computed for this report. \`awb report ${run} --curves\` scores every recorded step and rewrites the report (one official score per state: minutes); \`awb curves ${run}\` records them in the run for every later report (AWB_CURVES=1 does that at the end of a Vitest run)`
}

/** A path as one shell word: as it is when it has only safe characters, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * What is wrong with a row's records: its attempt's seal fails, or the run's metrics.jsonl row (written after the
 * samples, outside any seal) is not the row the sealed result.json recorded.
 */
function recordsProblem(row: MetricsRow, selected: SelectedAttempt | undefined): string | null {
  if (selected?.seal?.flagged === true) return selected.seal.message
  const recorded = selected?.kind === 'attempt' && selected.seal?.verdict === 'ok' ? (selected.attempt.result as { metrics?: Partial<MetricsRow> } | undefined)?.metrics : undefined
  if (recorded === undefined) return null
  const differing = (['status', 'SR', 'PA', 'SCD'] as const).filter(field => recorded[field] !== row[field])
  if (differing.length === 0) return null
  return `run ${selected!.attempt!.run}: ${row.block} / ${row.sample_id}: metrics.jsonl says ${differing.map(field => `${field} ${String(row[field])}`).join(', ')}, but the sealed result.json records ${differing.map(field => `${field} ${String(recorded[field])}`).join(', ')}`
}

/** Counts of the records check and every flagged line, also for recorded attempts that have no row. */
function recordsCheck(samples: readonly ReportSample[], selected: readonly SelectedAttempt[]): ReportRecords {
  const withRow = new Set(samples.map(sample => sampleKey(sample.block, sample.sample_id)))
  const flagged = [
    ...samples.flatMap(sample => (sample.integrity == null ? [] : [sample.integrity])),
    ...selected.filter(one => !withRow.has(sampleKey(one.block, one.sampleId)) && one.seal?.flagged === true).map(one => `${one.seal!.message ?? one.sampleId} (and metrics.jsonl has no row for it)`),
  ]
  return {
    sealed: selected.filter(one => one.seal?.verdict === 'ok').length,
    unsealed: selected.filter(one => one.seal?.verdict === 'unsealed' && !one.seal.flagged).length,
    flagged,
  }
}

/** Rendered final scenes of the samples with a saved export; a browser that will not start only costs the images. */
async function finalCaptures(rows: readonly MetricsRow[], attempts: ReadonlyMap<string, string | undefined>, log: (line: string) => void): Promise<Map<string, Uint8Array>> {
  const targets = rows.flatMap((row) => {
    const dir = attempts.get(sampleKey(row.block, row.sample_id))
    return dir === undefined || row.episode_sha256 === undefined ? [] : [{ key: reportKey(row), episodePath: join(dir, 'final.episode.zip') }]
  })
  try {
    return await renderFinalCaptures(targets, log)
  } catch (error) {
    log(`awb report: final captures skipped (headless Chromium did not start: ${error instanceof Error ? error.message : String(error)})`)
    return new Map()
  }
}

/**
 * The report's name of a sample, `block/sample_id`: its row anchor in the page (and URL fragment), the key of its
 * capture and the key the paired comparison gives it. Readable, so not `sampleKey`; unambiguous, as block names
 * have no `/`.
 */
function reportKey(row: Pick<MetricsRow, 'block' | 'sample_id'>): string {
  return `${row.block}/${row.sample_id}`
}

async function readBaselineRows(dir: string): Promise<MetricsRow[]> {
  const rows = await readMetricsRows(resolve(dir))
  if (rows === undefined) throw new ReportError('REPORT_INPUT_MISSING', 'the baseline has no metrics.jsonl; pass a finished run directory (or an `awb eval` output) as --baseline', { file: dir })
  return rows
}

/** A report folder is ours to replace only when it is empty or holds a previous report. */
async function prepareOutDir(out: string): Promise<void> {
  const previous = await readFile(join(out, REPORT_MARKER), 'utf8').catch((error: unknown) => {
    // No index.html: a new folder. Any other failure is not that, and replacing the folder would be a guess.
    if (systemErrorCode(error) === 'ENOENT') return undefined
    throw new ReportError('REPORT_INPUT_INVALID', `the output folder's ${REPORT_MARKER} cannot be read (${error instanceof Error ? error.message : String(error)}); check its permissions or choose another --out`, { file: out, cause: error })
  })
  if (previous !== undefined && !previous.includes('id="awb-data"')) throw new ReportError('REPORT_INPUT_INVALID', 'the output folder holds an index.html that is not an AssemblyWorldBench report; choose another --out', { file: out })
  await rm(join(out, ASSETS), { recursive: true, force: true })
  await mkdir(join(out, ASSETS), { recursive: true })
  // The report shows every sample's ground truth: no agent of a later run may read it, wherever it is published.
  await markAnswersFolder(out)
}

/** The curves a page is written with, and what a sample they lack says. */
interface PageCurves {
  curves: RunCurves | undefined
  missing: string
}

async function reportSample(row: MetricsRow, pkg: BenchmarkPackage, page: PageCurves, attemptDir: string | undefined, comparison: PairedComparison | null, out: string, rendered: Uint8Array | undefined): Promise<ReportSample> {
  const key = reportKey(row)
  const found = page.curves?.samples.find(s => s.block === row.block && s.sample_id === row.sample_id)
  // A curve of another export (the run was resumed or rescored since) would replay the wrong trajectory.
  const isStale = found !== undefined && !isFailedCurve(found) && row.episode_sha256 !== undefined && found.episode_sha256 !== row.episode_sha256
  const curve: SampleCurve | undefined = found === undefined || isFailedCurve(found) || isStale ? undefined : found
  const sample = findSample(pkg, row.block, row.sample_id)
  const pages: string[] = []
  for (const page of sample.pages) {
    const name = `${ASSETS}/${sample.block}--${sample.slug}--page-${page.page}.${page.path.split('.').at(-1) ?? 'png'}`
    await writeFileAtomic(join(out, name), await readPage(pkg, page))
    pages.push(name)
  }
  let scene: ReportSample['scene'] = null
  let capture: string | null = null
  let captureKind: ReportSample['capture_kind'] = null
  let curveError = found === undefined ? (page.curves === undefined ? page.missing : `curves.json has no curve for this sample; recompute it with \`awb curves ${shellWord(page.curves.run)}\``)
    : isFailedCurve(found) ? found.error
      : isStale ? 'curves.json was computed on another export of this sample; recompute it with `awb curves`' : null
  const states = curve ?? finalStateOnly(row)
  if (states !== undefined && attemptDir !== undefined) {
    try {
      const episode = await decodeEpisode(new Uint8Array(await readFile(join(attemptDir, 'final.episode.zip'))), { source: join(attemptDir, 'final.episode.zip') })
      scene = await buildViewerScene(episode, await loadEvaluation(pkg, sample), states)
      const png = rendered ?? lastCapture(episode)
      captureKind = rendered !== undefined ? 'final' : png !== undefined ? 'agent-last' : null
      if (png !== undefined) {
        capture = `${ASSETS}/${sample.block}--${sample.slug}--capture.png`
        await writeFileAtomic(join(out, capture), png)
      }
    } catch (error) {
      curveError = `the replay could not be built: ${error instanceof Error ? error.message : String(error)}`
    }
  }
  const paired = comparison?.samples.find(s => s.key === key)
  return {
    key,
    block: row.block,
    sample_id: row.sample_id,
    status: row.status,
    error: row.status === 'error' ? row.error : null,
    SR: row.SR,
    PA: row.PA,
    SCD: row.SCD,
    parts_correct: row.status === 'scored' ? row.parts.filter(p => p.correct).length : null,
    parts_total: row.status === 'scored' ? row.parts.length : null,
    tool_calls: row.tool_calls,
    duration_seconds: row.duration_seconds,
    capture,
    capture_kind: captureKind,
    pages,
    steps: curve?.steps ?? [],
    figures: curve?.figures ?? null,
    curve_error: curveError,
    scene,
    baseline: paired === undefined ? null : paired.delta,
  }
}

/** Without a curve, the replay shows the scored final state as the official row describes it. */
function finalStateOnly(row: MetricsRow): Pick<SampleCurve, 'states' | 'scale_divisor'> | undefined {
  if (row.status !== 'scored') return undefined
  // Row parts are in part_ids order (scoring.md §7), the order the viewer uses.
  return {
    scale_divisor: row.scale_divisor,
    states: [{ state_index: row.state_index, correct: row.parts.map(p => p.correct), target_part_ids: row.parts.map(p => p.target_part_id), rotation: row.alignment.rotation, translation: row.alignment.translation }],
  }
}
