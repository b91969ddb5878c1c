// Writes the run.json of a merged run (`vitest run --merge-reports`): which shard runs its rows come from, how their
// seal chains ended when the merge read them, and what the shards agree on (options, package, tasks). Copies no sample
// record and scores nothing: readers follow `merge.shards` to the shard runs beside it (run-chain.ts).
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { markAnswersFolder } from '../shared/answer-folders.ts'
import { writeFileAtomic } from '../shared/atomic-write.ts'
import { compareCodePoints } from '../shared/code-points.ts'
import { RunError } from './errors.ts'
import type { RunRecord } from './read-run.ts'
import { currentProcess } from './run-process.ts'
import { newRunId } from './run-writer.ts'
import { RUN_KIND, RUN_VERSION, RunJsonSchema, type MergeShard, type RunJson } from './schemas.ts'
import type { RunSeals } from './verify-seals.ts'

/** The folder name a merged run gets after its id: `<run-id>-merged`, beside the shard runs it reads. */
const MERGED_RUN_SUFFIX = '-merged'

/** A shard run as the merge read it: its id (its folder name beside the merged run), its records and their seals. */
export interface MergedShard {
  id: string
  run: RunRecord
  seals: RunSeals
}

export interface CreateMergedRunOptions {
  /** The folder that holds the shard runs (`runs/`); the merged run is created in it. */
  runsRoot: string
  /** The shard runs whose records the merge reports; at least one. */
  shards: readonly MergedShard[]
  /** Clock of the run id and timestamps (tests pass a fixed one). */
  now?: () => Date
}

/** run.json fields that name the run's own process and times, never the shards' to share. */
const OWN_FIELDS = new Set(['version', 'kind', 'status', 'started_at', 'finished_at', 'source_run', 'process', 'errors', 'seals', 'pause_reason', 'merge', 'selection', 'tasks', 'reference_modes'])

/**
 * The run.json of a merge of `shards` (status `running` until `finish`). `started_at` is when the first shard started,
 * so that its elapsed time is the whole distributed run's. `selection`, `tasks` and `reference_modes` are the union of
 * the shards'; every other field (options, benchmark, versions, code commit) is kept where all shards that record it
 * agree, entry by entry for objects; what they disagree on is left out and named in `merge.differing`.
 */
function mergedRunJson(shards: readonly MergedShard[], at: Date): RunJson & Record<string, unknown> {
  if (shards.length === 0) throw new RunError('RUN_RECORD_INVALID', 'a merged run needs at least one shard run')
  const sorted = [...shards].sort((a, b) => compareCodePoints(a.id, b.id))
  const jsons = sorted.map(shard => shard.run.json as Record<string, unknown>)
  const differing: string[] = []
  const shared: Record<string, unknown> = {}
  const fields = [...new Set(jsons.flatMap(json => Object.keys(json)))].filter(field => !OWN_FIELDS.has(field)).sort(compareCodePoints)
  for (const field of fields) {
    const value = agreed(jsons.filter(json => json[field] !== undefined).map(json => json[field]), field, differing)
    if (value !== undefined) shared[field] = value
  }
  const blockUnion = (field: 'tasks' | 'reference_modes') => {
    const values = jsons.map(json => json[field]).filter(isRecord)
    return agreed(values, field, differing) as Record<string, string> | undefined ?? {}
  }
  const starts = sorted.map(shard => Date.parse(shard.run.json.started_at ?? '')).filter(Number.isFinite)
  const mergedAt = at.toISOString()
  return {
    version: RUN_VERSION,
    kind: RUN_KIND,
    status: 'running',
    started_at: starts.length === sorted.length ? new Date(Math.min(...starts)).toISOString() : mergedAt,
    source_run: null,
    ...shared,
    selection: unionSelection(sorted.map(shard => shard.run.json.selection ?? {})),
    tasks: blockUnion('tasks'),
    reference_modes: blockUnion('reference_modes'),
    merge: {
      shards: sorted.map((shard): MergeShard => ({
        run: shard.id,
        status: shard.run.json.status,
        seals: shard.seals.mode === 'sealed' ? { count: shard.seals.count, head: shard.seals.head } : null,
      })),
      differing: differing.sort(compareCodePoints),
      merged_at: mergedAt,
    },
    errors: [] as string[],
    process: currentProcess(),
  } satisfies RunJson & Record<string, unknown>
}

/**
 * A merged run being written: `<runsRoot>/<run-id>-merged/run.json`, written atomically at creation (status
 * `running`, with this process, so a merge that dies reads as interrupted) and at `finish`. The official files
 * (summary.json, metrics.jsonl, …) are written into `dir` by the caller.
 */
export class MergedRunWriter {
  readonly dir: string
  private json: RunJson & Record<string, unknown>
  private readonly now: () => Date

  private constructor(dir: string, json: RunJson & Record<string, unknown>, now: () => Date) {
    this.dir = dir
    this.json = json
    this.now = now
  }

  static async create(options: CreateMergedRunOptions): Promise<MergedRunWriter> {
    const now = options.now ?? (() => new Date())
    const at = now()
    const json = mergedRunJson(options.shards, at)
    // What readers will parse: a shard id that is not one folder name, say, is refused here, not by every reader.
    const parsed = RunJsonSchema.safeParse(json)
    if (!parsed.success) throw new RunError('RUN_RECORD_INVALID', `the merged run.json would not be readable: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? 'invalid'}`)
    const dir = resolve(options.runsRoot, `${newRunId(at)}${MERGED_RUN_SUFFIX}`)
    await mkdir(resolve(options.runsRoot), { recursive: true })
    await mkdir(dir) // not recursive: an existing run directory is never reused
    await markAnswersFolder(dir)
    const writer = new MergedRunWriter(dir, json, now)
    await writer.write()
    return writer
  }

  /** Sets the merge's final status (`completed`, `failed`) with its run-level errors. */
  async finish(status: 'completed' | 'failed', errors: readonly string[] = []): Promise<void> {
    this.json = { ...this.json, status, errors: [...errors], finished_at: this.now().toISOString() }
    await this.write()
  }

  private async write(): Promise<void> {
    await writeFileAtomic(join(this.dir, 'run.json'), `${JSON.stringify(this.json, null, 2)}\n`)
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * What `values` (one per shard that records the field) agree on: the value itself when all are equal; for objects,
 * the entries all of them that have the entry agree on. A disagreement is named in `differing` (`field.entry`).
 */
function agreed(values: readonly unknown[], field: string, differing: string[]): unknown {
  if (values.length === 0) return undefined
  if (values.every(value => sameJson(value, values[0]))) return values[0]
  if (!values.every(isRecord)) {
    differing.push(field)
    return undefined
  }
  const out: Record<string, unknown> = {}
  const keys = [...new Set(values.flatMap(value => Object.keys(value)))].sort(compareCodePoints)
  for (const key of keys) {
    const entries = values.filter(value => value[key] !== undefined).map(value => value[key])
    if (entries.every(entry => sameJson(entry, entries[0]))) out[key] = entries[0]
    else differing.push(`${field}.${key}`)
  }
  return out
}

/** Equal as JSON, whatever the key order of objects. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (isRecord(value)) return Object.fromEntries(Object.keys(value).sort(compareCodePoints).map(key => [key, sortKeys(value[key])]))
  return value
}

/** Every shard's selection per block, each sample once, in the order the shards (then their runs) list them. */
function unionSelection(selections: readonly Record<string, string[]>[]): Record<string, string[]> {
  const union: Record<string, string[]> = {}
  for (const selection of selections) {
    for (const [block, ids] of Object.entries(selection)) {
      const known = (union[block] ??= [])
      for (const id of ids) if (!known.includes(id)) known.push(id)
    }
  }
  return union
}
