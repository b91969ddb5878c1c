// `awb status [RUN] [--runs DIR] [--benchmark DIR] [--json]`: where a run chain stands (runner.md §7.1; a merged run
// through its shard runs), as JSON or a table per block, with each run's seals and why each damaged sample is damaged.
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import * as z from 'zod'
import { compareCodePoints } from '../../shared/code-points.ts'
import { UsageError } from '../usage-error.ts'

const StatusOptionsSchema = z.looseObject({ json: z.boolean().optional(), runs: z.string().min(1).optional(), benchmark: z.string().min(1).optional() })

type Status = Awaited<ReturnType<typeof import('../../runs/index.ts').chainStatus>>

/** Every sample of the package per block, or why the package could not be listed. */
export type PackageListing = { samples: Map<string, string[]> } | { problem: string }

/** What status adds to the chain's records: the samples that never started, and how long the run ran. */
export interface StatusExtras {
  /** Package samples with no record anywhere in the chain: they never started (`pending`, as runner.md §3 pre-creates them). */
  notStarted: { block: string; sampleId: string }[]
  /** Why never-started samples cannot be listed (no package recorded, or it is gone); undefined when they are. */
  packageProblem: string | undefined
  /** Seconds from the run's start to its end: `finished_at`, its last record when its process is gone, else now. */
  elapsedSeconds: number | undefined
  /** Whether the run's process is still writing it. */
  isRunning: boolean
  /** When a run that is not running last recorded anything, when that is where its elapsed time ends (ISO). */
  lastRecordAt: string | undefined
}

/** Exit: 0 (the status was read), 1 (no such run), 2 (usage). */
export async function run(args: unknown[]): Promise<number> {
  const [runArg, rawOptions] = args
  const options = StatusOptionsSchema.safeParse(rawOptions ?? {})
  if (!options.success) throw new UsageError(`status: invalid options (${options.error.issues[0]?.message ?? 'unknown'})`)
  const { chainStatus, lastRecordTime, recordedBenchmark } = await import('../../runs/index.ts')
  const { resolveResumeRun } = await import('../../harness/node/index.ts')
  const runDir = await resolveResumeRun(typeof runArg === 'string' && runArg !== '' ? runArg : 'latest', options.data.runs ?? 'runs')
  const status = await chainStatus(runDir)
  const packageDir = options.data.benchmark ?? recordedBenchmark(status.run.json)
  const listing: PackageListing = packageDir === undefined
    ? { problem: 'run.json records no benchmark package; pass --benchmark <package-dir>' }
    : await listPackageSamples(packageDir)
  const extras = statusExtras(status, listing, await lastRecordTime(status.run), Date.now())
  const json = status.run.json as Record<string, unknown>
  if (options.data.json === true) {
    // Every sample of the package: one that never started is `pending`, as the reference pre-creates it (§3).
    const every = [...status.samples, ...extras.notStarted.map(sample => ({ ...sample, state: 'pending' as const }))]
      .sort((a, b) => compareCodePoints(a.block, b.block) || compareCodePoints(a.sampleId, b.sampleId))
    const counts: Record<string, number> = { ...status.counts }
    if (extras.notStarted.length > 0) counts.pending = (counts.pending ?? 0) + extras.notStarted.length
    process.stdout.write(`${JSON.stringify({
      run: status.run.dir,
      status: status.state,
      ...(typeof json.pause_reason === 'string' ? { pause_reason: json.pause_reason } : {}),
      source_run: json.source_run ?? null,
      // A merged run (--merge-reports): the shard runs its samples are recorded in.
      ...(status.run.json.merge === undefined ? {} : { merge_of: mergeShards(status) }),
      samples: Object.fromEntries(every.map(sample => [`${sample.block}/${sample.sampleId}`, sample.state])),
      counts,
      // Added beside §7.1's fields: how long the run ran, whether it still runs, and why samples may be missing.
      running: extras.isRunning,
      elapsed_seconds: extras.elapsedSeconds ?? null,
      ...(extras.lastRecordAt === undefined ? {} : { last_record_at: extras.lastRecordAt }),
      ...(extras.packageProblem === undefined ? {} : { package_problem: extras.packageProblem }),
      // Why each damaged sample is damaged, and each run's seals (runner.md §7.1 has no place for them: added here).
      damaged: Object.fromEntries(status.samples.filter(sample => sample.state === 'damaged').map(sample => [`${sample.block}/${sample.sampleId}`, sample.damage ?? null])),
      // Samples whose page was lost before they saved their world, and what became of the rebuild from Node's records.
      rebuilt: Object.fromEntries(rebuiltSamples(status).map(({ sample, rebuild }) => [`${sample.block}/${sample.sampleId}`, rebuild])),
      seals: status.seals.map(seals => ({
        run: seals.run,
        mode: seals.mode,
        count: seals.count,
        head: seals.head,
        chain_problems: seals.chainProblems,
        samples: Object.fromEntries(seals.samples.map(sample => [`${sample.block}/${sample.sampleId}`, sample.verdict])),
      })),
    }, null, 2)}\n`)
    return 0
  }
  process.stdout.write(`${formatStatus(status, extras)}\n`)
  return 0
}

const PackageListSchema = z.looseObject({ blocks: z.array(z.unknown()) })
/** The package's index (package spec §2); the package's layout module keeps the name but does not export it. */
const BENCHMARK_FILE = 'benchmark.json'

/**
 * Every sample id per block, from the package's benchmark.json alone: status only needs the ids, and verifying every
 * sample's files (openPackage) takes tens of seconds on the real package. A block entry that does not parse is left out.
 */
export async function listPackageSamples(packageDir: string): Promise<PackageListing> {
  const { BlockSchema } = await import('../../package/index.ts')
  const file = join(packageDir, BENCHMARK_FILE)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    return { problem: `the package's ${file} cannot be read (${error instanceof Error ? error.message : String(error)}); pass --benchmark <package-dir>` }
  }
  let parsed
  try {
    parsed = PackageListSchema.safeParse(JSON.parse(text))
  } catch (error) {
    return { problem: `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (!parsed.success) return { problem: `${file} has no blocks list` }
  const samples = new Map<string, string[]>()
  for (const entry of parsed.data.blocks) {
    const block = BlockSchema.safeParse(entry)
    if (block.success) samples.set(block.data.name, Object.keys(block.data.samples))
  }
  return { samples }
}

/** What the records alone do not show: the package's never-started samples and the run's elapsed time. */
export function statusExtras(status: Status, listing: PackageListing, lastRecordMs: number | undefined, nowMs: number): StatusExtras {
  const recorded = new Set(status.samples.map(sample => `${sample.block}\u0000${sample.sampleId}`))
  const notStarted: StatusExtras['notStarted'] = []
  const candidates = new Map<string, Set<string>>()
  const add = (block: string, id: string) => (candidates.get(block) ?? candidates.set(block, new Set()).get(block)!).add(id)
  if ('samples' in listing) for (const [block, ids] of listing.samples) for (const id of ids) add(block, id)
  // A sample the chain selected counts too, package or not (the package may be gone).
  for (const one of status.chain) for (const [block, ids] of Object.entries(one.json.selection ?? {})) for (const id of ids) add(block, id)
  for (const [block, ids] of candidates) for (const id of ids) if (!recorded.has(`${block}\u0000${id}`)) notStarted.push({ block, sampleId: id })
  const json = status.run.json as Record<string, unknown>
  const started = typeof json.started_at === 'string' ? Date.parse(json.started_at) : Number.NaN
  const finished = typeof json.finished_at === 'string' ? Date.parse(json.finished_at) : Number.NaN
  const isRunning = status.state === 'running'
  // A run that is not running and never wrote `finished_at` (killed with `kill -9`) ended at its last record: counting
  // to now would make a dead run look as if it were still going.
  const useLastRecord = !isRunning && !Number.isFinite(finished) && lastRecordMs !== undefined
  const ended = Number.isFinite(finished) ? finished : isRunning ? nowMs : lastRecordMs ?? Number.NaN
  return {
    notStarted,
    packageProblem: 'problem' in listing ? listing.problem : undefined,
    elapsedSeconds: Number.isFinite(started) && Number.isFinite(ended) ? Math.max(0, (ended - started) / 1000) : undefined,
    isRunning,
    lastRecordAt: useLastRecord ? new Date(lastRecordMs).toISOString() : undefined,
  }
}

const COLUMNS = ['completed', 'failed', 'running', 'interrupted', 'pending', 'damaged'] as const

/** One line per block (done / failed / running / interrupted / pending / damaged, cost so far), then the run. */
export function formatStatus(status: Status, extras: StatusExtras): string {
  const json = status.run.json as Record<string, unknown>
  const notStarted = new Map<string, number>()
  for (const sample of extras.notStarted) notStarted.set(sample.block, (notStarted.get(sample.block) ?? 0) + 1)
  const blocks = [...new Set([...notStarted.keys(), ...status.samples.map(sample => sample.block)])].sort()
  const rows = blocks.map((block) => {
    const samples = status.samples.filter(sample => sample.block === block)
    const count = (state: string) => samples.filter(sample => sample.state === state).length
    const costs = samples.map(sample => sample.attempt.result?.execution?.cost_usd).filter((cost): cost is number => typeof cost === 'number')
    // A sample that never started is `pending`: the reference pre-creates every sample's folder as such (runner.md §3).
    return [block, ...COLUMNS.map(state => String(count(state) + (state === 'pending' ? notStarted.get(block) ?? 0 : 0))), costs.length === 0 ? '—' : `$${costs.reduce((a, b) => a + b, 0).toFixed(4)}`]
  })
  const header = ['block', ...COLUMNS, 'cost']
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map(row => row[i]!.length)))
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
  const elapsed = extras.elapsedSeconds === undefined ? 'elapsed unknown' : `${extras.elapsedSeconds.toFixed(0)} s${extras.lastRecordAt === undefined ? '' : ` up to its last record (${extras.lastRecordAt})`}`
  const state = status.state === 'paused' && typeof json.pause_reason === 'string' ? `paused (${json.pause_reason})` : status.state === 'interrupted' ? 'interrupted, not running (its process is gone; continue it with AWB_RESUME)' : status.state
  return [
    `run ${status.run.dir}: ${state}, ${elapsed}${madeFrom(status)}`,
    line(header),
    line(widths.map(width => '─'.repeat(width))),
    ...rows.map(line),
    ...(extras.packageProblem === undefined ? [] : [`samples that never started are not counted: ${extras.packageProblem}`]),
    ...sealLines(status),
  ].join('\n')
}

/** The shard runs of a merged run, as their folders. */
function mergeShards(status: Status): string[] {
  return (status.run.json.merge?.shards ?? []).map(shard => join(dirname(status.run.dir), shard.run))
}

/** What the run is made from: the shard runs of a merge, or the earlier runs a resume continues. */
function madeFrom(status: Status): string {
  const merge = status.run.json.merge
  if (merge !== undefined) return `, a merge of ${merge.shards.length} shard run${merge.shards.length === 1 ? '' : 's'} (${merge.shards.map(shard => shard.run).join(', ')})`
  const earlier = status.chain.length - 1
  return earlier > 0 ? `, resumes ${earlier} earlier run${earlier > 1 ? 's' : ''}` : ''
}

/** Each run's seals in one line, then every damaged sample with why (which run, sample and file, what differs). */
export function sealLines(status: Status): string[] {
  const lines = status.seals.map((seals) => {
    const name = seals.run === status.run.dir ? 'this run' : seals.run
    if (seals.mode === 'legacy') return `seals (${name}): none; the run predates sealed records, so its files cannot be checked`
    if (seals.mode === 'merge') return `seals (${name}): a merge holds no sample of its own; its shard runs' seals vouch for its samples, each chain as the merge read it${seals.flagged.length === 0 ? '' : `; ${seals.flagged.length} sample folder(s) planted in it`}`
    const flagged = seals.flagged.length
    const chain = seals.chainProblems.length === 0 ? '' : `; ${seals.chainProblems.join('; ')}`
    return `seals (${name}): ${seals.count} sealed, ${flagged === 0 ? 'every sample intact' : `${flagged} flagged`}${chain}${seals.head === null ? '' : ` (head ${seals.head})`}`
  })
  const damaged = status.samples.filter(sample => sample.state === 'damaged')
  return [...lines, ...damaged.map(sample => `damaged ${sample.damage ?? `${sample.block} / ${sample.sampleId}`}; a resume runs it again`), ...rebuiltLines(status)]
}

/** The newest attempt of each sample whose page was lost before it saved its world, with what the rebuild recorded. */
function rebuiltSamples(status: Status) {
  return status.samples.flatMap((sample) => {
    const rebuild = sample.attempt.result?.archive?.rebuild
    return rebuild === undefined ? [] : [{ sample, rebuild }]
  })
}

/** One line per such sample: rebuilt and scored, or why it could not be rebuilt (and so has no score). */
function rebuiltLines(status: Status): string[] {
  return rebuiltSamples(status).map(({ sample, rebuild }) => rebuild.status === 'rebuilt'
    ? `rebuilt ${sample.block} / ${sample.sampleId}: its page was lost, so Node rebuilt its world from the ${rebuild.tool_calls} tool call(s) it recorded and scored it`
    : `not rebuilt ${sample.block} / ${sample.sampleId}: its page was lost and its world could not be rebuilt exactly (${rebuild.reason}), so it has no score`)
}
