// Checks a run's sample folders against its seals (seals.jsonl, format in seal-format.ts): which samples are intact,
// which have a changed, planted or missing file, which ended without a seal, and which seals the chain no longer
// vouches for. Reads; writes nothing. Used by `awb status`, `awb eval`, `awb report`, resume and merged reports.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compareCodePoints } from '../shared/code-points.ts'
import { readRun, type AttemptRecord, type RunRecord } from './read-run.ts'
import type { MergedSeals } from './run-chain.ts'
import { isRunAlive } from './run-process.ts'
import { readFolderContents, type FolderContents } from './sample-files.ts'
import { readSealChain, RunSealsFieldSchema, sampleFolderName, SEALS_FILE, type SealEntry, type SealLineRecord } from './seal-format.ts'

/**
 * What a sample's folder is, measured against its seal:
 * - `ok`: sealed, and every file is as sealed;
 * - `changed` / `missing` / `planted`: a sealed file's bytes differ (or it is no longer a regular file), a sealed
 *   file (or the whole folder) is gone, a file is there that the seal does not name;
 * - `broken`: its seal line is one the chain no longer vouches for (seals.jsonl was edited, reordered, cut);
 * - `unsealed`: it ended with no seal (a run made before seals: all its samples; a run that seals: a planted or
 *   replaced folder, or a write cut short by a crash);
 * - `open`: it has not ended yet, so there is nothing to check.
 */
export type SealVerdict = 'ok' | 'changed' | 'missing' | 'planted' | 'broken' | 'unsealed' | 'open'

/** One file that differs from the seal. `sealed` / `found`: SHA-256 in the seal and now (null: none). */
export interface SealDifference {
  file: string
  kind: 'changed' | 'missing' | 'planted'
  sealed: string | null
  found: string | null
  /** For a file that is no longer a regular file (or never was one): what it is. */
  detail?: string
}

export interface SampleSeal {
  block: string
  sampleId: string
  /** The sample folder (absolute), whether or not it still exists. */
  dir: string
  verdict: SealVerdict
  /**
   * Whether the sample's records must not be trusted: any verdict but `ok` and `open`, and `unsealed` only in a
   * run that seals (a run made before seals is read as it always was).
   */
  flagged: boolean
  /** Every file that differs, in name order (also for `broken`, measured against the untrusted seal). */
  differences: SealDifference[]
  /** The line of its seal in seals.jsonl (1-based), null when it has none. */
  line: number | null
  sealedAt: string | null
  /** What is wrong, naming the run, the sample, the file and what differs; null when not flagged. */
  message: string | null
}

export interface RunSeals {
  /** The run directory (absolute, symlink-free). */
  run: string
  /**
   * `sealed`: the run seals its samples; `legacy`: made before seals (no seals.jsonl, run.json without `seals`);
   * `merge`: a merged run (run.json `merge`), which holds no sample of its own: its shard runs' seals vouch for its rows.
   */
  mode: 'sealed' | 'legacy' | 'merge'
  /** What is wrong with seals.jsonl itself (edited, reordered, cut or added lines; missing file), one sentence each. */
  chainProblems: string[]
  /** Complete lines in seals.jsonl. */
  count: number
  /**
   * SHA-256 of the last line: the whole chain in one value. Kept somewhere the run's writers cannot reach (a CI log,
   * a job summary), it lets a later check tell a consistently rewritten seals.jsonl from the original.
   */
  head: string | null
  /** Every sample folder of the run, and every sealed sample whose folder is gone; block, then sample id. */
  samples: SampleSeal[]
  /** The samples of `samples` that are flagged. */
  flagged: SampleSeal[]
}

export interface VerifySealsOptions {
  /**
   * The run's writer is alive (`isRunAlive`): a sample whose final result is written but whose seal is not yet, and
   * a last line still being written, are a seal under way rather than a fault. Default: false (`verifySeals` asks).
   */
  live?: boolean
  /**
   * How merged runs recorded this run's seal chain when they read it (`RunGraph.mergedSeals`): a chain that no longer
   * ends there (lines added, removed or rewritten, the whole run replaced) vouches for none of its samples.
   */
  merges?: readonly MergedSeals[]
}

/** Reads `runDir` and checks every sample folder against its seal. Throws `RunError` only for an unusable run directory. */
export async function verifySeals(runDir: string): Promise<RunSeals> {
  const run = await readRun(runDir)
  return verifyRunSeals(run, { live: isRunAlive(run) })
}

/** As `verifySeals`, for a run already read. */
export async function verifyRunSeals(run: RunRecord, options: VerifySealsOptions = {}): Promise<RunSeals> {
  const live = options.live === true
  const text = await readFile(join(run.dir, SEALS_FILE), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  const declared = RunSealsFieldSchema.safeParse((run.json as { seals?: unknown }).seals)
  const mode = text !== undefined || declared.success ? 'sealed' : run.json.merge !== undefined ? 'merge' : 'legacy'
  const chain = readSealChain(text ?? '')
  const problems = [...chain.problems]
  if (chain.torn && !live) problems.push(`the last line of ${SEALS_FILE} is incomplete (no newline): its writer stopped mid-line, so it seals nothing`)
  if (text === undefined && declared.success) problems.push(`run.json says this run seals its samples, but ${SEALS_FILE} is missing`)
  const lines = chain.lines.map(line => ({ ...line }))
  if (declared.success && declared.data.count !== undefined && declared.data.head !== undefined && text !== undefined) {
    checkAgainstRunJson(lines, chain.head, declared.data.count, declared.data.head, problems)
  }
  const replaced = (options.merges ?? []).flatMap(merge => checkAgainstMerge(lines, chain.head, merge, problems))
  const bySample = sealsBySample(lines, problems)
  const runEnded = run.json.status !== 'running'
  const samples: SampleSeal[] = []
  for (const attempt of run.attempts) {
    const key = folderKey(attempt.block, attempt.slug)
    const seal = bySample.get(key)
    bySample.delete(key)
    samples.push(seal === undefined
      ? unsealed(run, attempt, mode, runEnded, live)
      : await checkSealed(run, attempt.block, attempt.sampleId, attempt.dir, seal, problems))
  }
  // Seals whose folder is gone altogether.
  for (const seal of bySample.values()) {
    const entry = seal.entry!
    samples.push(await checkSealed(run, entry.block, entry.sample_id, join(run.dir, 'blocks', entry.block, 'samples', sampleFolderName(entry.sample_id)), seal, problems))
  }
  samples.sort((a, b) => compareCodePoints(a.block, b.block) || compareCodePoints(a.sampleId, b.sampleId))
  // Not the run a merge read (its seals removed altogether, say): no record of it is vouched for, sealed or not.
  if (replaced.length > 0) {
    for (const [i, sample] of samples.entries()) {
      if (!sample.flagged) samples[i] = { ...sample, verdict: 'broken', flagged: true, message: `${where(run, sample.block, sample.sampleId)}: ${replaced[0]}` }
    }
  }
  return { run: run.dir, mode, chainProblems: problems, count: lines.length, head: chain.head, samples, flagged: samples.filter(sample => sample.flagged) }
}

/**
 * The attempts of sealed samples whose folder is gone: readers that list folders would not see them, and a removed
 * sample must not silently leave the run (a removed failure would raise its block's SR). Each comes back as an
 * attempt with no records, which its flagged seal makes an error.
 */
export function sealedButRemoved(run: RunRecord, seals: RunSeals): AttemptRecord[] {
  const present = new Set(run.attempts.map(attempt => attempt.dir))
  return seals.samples.filter(sample => !present.has(sample.dir)).map(sample => ({
    block: sample.block,
    sampleId: sample.sampleId,
    slug: sampleFolderName(sample.sampleId),
    dir: sample.dir,
    run: run.dir,
    result: undefined,
    input: undefined,
    recordError: sample.message ?? 'the sample folder was removed after it was sealed',
  }))
}

/** Key of a sample folder (block, slug), not of a sample (`sampleKey`): what a seal covers is the folder. */
function folderKey(block: string, slug: string): string {
  return JSON.stringify([block, slug])
}

/** The newest trusted-or-not line per sample folder; a folder sealed twice has no trusted seal. */
function sealsBySample(lines: SealLineRecord[], problems: string[]): Map<string, SealLineRecord> {
  const byFolder = new Map<string, SealLineRecord>()
  for (const line of lines) {
    if (line.entry === undefined) continue
    const key = folderKey(line.entry.block, sampleFolderName(line.entry.sample_id))
    const earlier = byFolder.get(key)
    if (earlier !== undefined) {
      // A sample is sealed once, when it ends: a second line is not the harness's.
      problems.push(`${SEALS_FILE} seals ${line.entry.block} / ${line.entry.sample_id} twice (lines ${earlier.line} and ${line.line})`)
      earlier.trusted = false
      line.trusted = false
    }
    byFolder.set(key, line)
  }
  return byFolder
}

/** A finished run records how many lines its chain has and the last one's hash; lines past or unlike those are not trusted. */
function checkAgainstRunJson(lines: SealLineRecord[], head: string | null, count: number, declaredHead: string | null, problems: string[]): void {
  if (lines.length !== count) {
    problems.push(`run.json records ${count} seals, but ${SEALS_FILE} has ${lines.length}: lines were ${lines.length > count ? 'added' : 'removed'} after the run finished`)
    for (const line of lines) if (line.line > count) line.trusted = false
  } else if (head !== declaredHead) {
    problems.push(`the last line of ${SEALS_FILE} hashes to ${head ?? 'nothing'}, but run.json records ${declaredHead ?? 'null'}: it was changed after the run finished`)
    const last = lines.at(-1)
    if (last !== undefined) last.trusted = false
  }
}

/**
 * A merge read this run's seal chain ending at `merge.count` lines and `merge.head`; a chain that ends elsewhere
 * vouches for nothing: every line is untrusted, and the problem is returned (none when it matches).
 */
function checkAgainstMerge(lines: SealLineRecord[], head: string | null, merge: MergedSeals, problems: string[]): string[] {
  if (lines.length === merge.count && head === merge.head) return []
  const problem = `the merged run ${merge.merge} read ${merge.count} seals from this run (last line ${merge.head ?? 'none'}), but ${SEALS_FILE} now has ${lines.length} (last line ${head ?? 'none'}): the shard run changed or was replaced after the merge, so none of its records is trusted`
  problems.push(problem)
  for (const line of lines) line.trusted = false
  return [problem]
}

function unsealed(run: RunRecord, attempt: AttemptRecord, mode: RunSeals['mode'], runEnded: boolean, live: boolean): SampleSeal {
  const base = { block: attempt.block, sampleId: attempt.sampleId, dir: attempt.dir, differences: [], line: null, sealedAt: null }
  const status = attempt.result?.status
  const ended = status === 'completed' || status === 'failed'
  if (mode === 'legacy') return { ...base, verdict: 'unsealed', flagged: false, message: null }
  // A merge writes no sample folder: one there was put there afterwards, and would pass for the run's own record.
  if (mode === 'merge') return { ...base, verdict: 'planted', flagged: true, message: `${where(run, attempt.block, attempt.sampleId)}: a merged run holds no sample folder of its own (its rows are its shard runs' records), so this one was added after the merge` }
  // A run seals every sample as it ends, and closes the ones still open before it finishes; a live writer may be
  // between a sample's final result and its seal.
  if ((!ended && !runEnded) || (live && !runEnded)) return { ...base, verdict: 'open', flagged: false, message: null }
  const why = ended ? `it ended (result.json status "${status}")` : 'its run has finished'
  return { ...base, verdict: 'unsealed', flagged: true, message: `${where(run, attempt.block, attempt.sampleId)}: ${why} but ${SEALS_FILE} has no seal for it: its folder was made or replaced outside the harness (or the harness stopped while sealing it)` }
}

async function checkSealed(run: RunRecord, block: string, sampleId: string, dir: string, seal: SealLineRecord, chainProblems: readonly string[]): Promise<SampleSeal> {
  const entry: SealEntry = seal.entry!
  const contents = await readFolderContents(dir)
  const differences = contents === undefined ? Object.entries(entry.files).map(([file, sha256]) => ({ file, kind: 'missing' as const, sealed: sha256, found: null })) : compare(entry.files, contents)
  const base = { block, sampleId, dir, differences, line: seal.line, sealedAt: entry.sealed_at }
  const at = where(run, block, sampleId)
  if (!seal.trusted) {
    return { ...base, verdict: 'broken', flagged: true, message: `${at}: its seal (${SEALS_FILE} line ${seal.line}) is not trusted: ${chainProblems[0] ?? 'the chain is broken'}` }
  }
  if (contents === undefined) {
    return { ...base, verdict: 'missing', flagged: true, message: `${at}: the sample folder was removed after it was sealed (${SEALS_FILE} line ${seal.line})` }
  }
  const first = differences.find(one => one.kind === 'changed') ?? differences.find(one => one.kind === 'missing') ?? differences[0]
  if (first === undefined) return { ...base, verdict: 'ok', flagged: false, message: null }
  const more = differences.filter(one => one !== first)
  const also = more.length === 0 ? '' : `; also ${more.map(one => `${one.file} ${one.kind}`).join(', ')}`
  return { ...base, verdict: first.kind, flagged: true, message: `${at}: ${describe(first)} (${SEALS_FILE} line ${seal.line})${also}` }
}

function compare(sealed: Readonly<Record<string, string>>, contents: FolderContents): SealDifference[] {
  const differences: SealDifference[] = []
  for (const [file, sha256] of Object.entries(sealed)) {
    const found = contents.files.get(file)
    const other = contents.others.get(file)
    if (found !== undefined && found.sha256 !== sha256) differences.push({ file, kind: 'changed', sealed: sha256, found: found.sha256 })
    else if (found === undefined && other !== undefined) differences.push({ file, kind: 'changed', sealed: sha256, found: null, detail: `is now a ${other}` })
    else if (found === undefined) differences.push({ file, kind: 'missing', sealed: sha256, found: null })
  }
  for (const [file, digest] of contents.files) if (!(file in sealed)) differences.push({ file, kind: 'planted', sealed: null, found: digest.sha256 })
  for (const [file, what] of contents.others) if (!(file in sealed)) differences.push({ file, kind: 'planted', sealed: null, found: null, detail: `a ${what}` })
  return differences.sort((a, b) => compareCodePoints(a.file, b.file))
}

function describe(difference: SealDifference): string {
  const short = (hash: string | null) => (hash === null ? 'none' : `${hash.slice(0, 16)}…`)
  switch (difference.kind) {
    case 'changed':
      return difference.detail === undefined
        ? `${difference.file} changed after the sample was sealed (SHA-256 now ${short(difference.found)}, sealed ${short(difference.sealed)})`
        : `${difference.file} changed after the sample was sealed (it ${difference.detail}; sealed as a file with SHA-256 ${short(difference.sealed)})`
    case 'missing':
      return `${difference.file} was removed after the sample was sealed`
    case 'planted':
      return `${difference.file}${difference.detail === undefined ? '' : ` (${difference.detail})`} was added after the sample was sealed (its seal does not name it)`
  }
}

function where(run: RunRecord, block: string, sampleId: string): string {
  return `run ${run.dir}: ${block} / ${sampleId}`
}
