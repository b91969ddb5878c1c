// Reads one run directory (run.json and every sample's records) into typed data; selects and scores nothing.
import { readdir, readFile, realpath, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type * as z from 'zod'
import { systemErrorCode } from '../shared/fs-errors.ts'
import { RunError } from './errors.ts'
import { InputJsonSchema, ResultJsonSchema, RunJsonSchema, type InputJson, type ResultJson, type RunJson } from './schemas.ts'

/** One sample attempt recorded in a run: `blocks/<block>/samples/<slug>/`. */
export interface AttemptRecord {
  block: string
  sampleId: string
  slug: string
  /** Absolute path of the sample directory. */
  dir: string
  /** Absolute path of the run directory holding it. */
  run: string
  result: ResultJson | undefined
  input: InputJson | undefined
  /** Why `result.json` or `input.json` could not be read; the attempt then becomes an error row. */
  recordError: string | undefined
}

export interface RunRecord {
  /** Absolute, symlink-free path of the run directory. */
  dir: string
  json: RunJson
  attempts: AttemptRecord[]
}

/** Reads `dir/run.json` and all sample records. Throws `RunError` when the directory or `run.json` is unusable. */
export async function readRun(dir: string): Promise<RunRecord> {
  const runDir = await resolveRunDir(dir)
  const json = await readJsonFile(join(runDir, 'run.json'), RunJsonSchema)
  if (json instanceof Error) throw new RunError('RUN_RECORD_INVALID', `${json.message}; ${await notARun(runDir)}`, { file: join(runDir, 'run.json') })
  const attempts: AttemptRecord[] = []
  for (const block of await listDirectories(join(runDir, 'blocks'))) {
    for (const slug of await listDirectories(join(runDir, 'blocks', block, 'samples'))) {
      attempts.push(await readAttempt(runDir, block, slug, json))
    }
  }
  return { dir: runDir, json, attempts }
}

/**
 * What a folder without a readable run.json is, when its files say: an `awb eval` output, or the report folder of a
 * merge made before merges recorded a run.json (summary.json and metrics.jsonl only); each says what to pass instead.
 */
async function notARun(runDir: string): Promise<string> {
  const has = (name: string) => stat(join(runDir, name)).then(() => true, () => false)
  if (await has('run.json')) return 'is this a run directory of assembly-world-bench version 1?'
  if (await has('eval.json')) return 'this folder is an `awb eval` output, not a run: pass the run directories it evaluated (eval.json `runs`)'
  if (await has('metrics.jsonl')) return 'this folder holds rows but no run record: a merged report from before merges recorded one. Merge the shards again (`npx vitest run --merge-reports`, each shard\'s runs folder in place) for a merged run that awb status, report and eval read, or pass the shard runs themselves'
  return 'pass the directory that holds run.json'
}

async function resolveRunDir(dir: string): Promise<string> {
  const absolute = resolve(dir)
  try {
    if (!(await stat(absolute)).isDirectory()) throw new Error('not a directory')
    return await realpath(absolute)
  } catch (cause) {
    throw new RunError('RUN_NOT_FOUND', 'no such run directory; pass the directory that holds run.json', { file: absolute, cause })
  }
}

async function readAttempt(run: string, block: string, slug: string, runJson: RunJson): Promise<AttemptRecord> {
  const dir = join(run, 'blocks', block, 'samples', slug)
  const result = await readJsonFile(join(dir, 'result.json'), ResultJsonSchema)
  const input = await readJsonFile(join(dir, 'input.json'), InputJsonSchema)
  const sampleId = input instanceof Error ? sampleIdFromSelection(runJson, block, slug) : input.sample_id
  const recordError = result instanceof Error ? result.message : input instanceof Error && sampleId === undefined ? input.message : undefined
  return {
    block,
    sampleId: sampleId ?? slug,
    slug,
    dir,
    run,
    result: result instanceof Error ? undefined : result,
    input: input instanceof Error ? undefined : input,
    recordError,
  }
}

/** Without input.json the id comes from run.json's selection: the id whose slug matches. */
function sampleIdFromSelection(runJson: RunJson, block: string, slug: string): string | undefined {
  return runJson.selection?.[block]?.find(id => id.split('/').join('--') === slug)
}

async function listDirectories(dir: string): Promise<string[]> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    // A run with no samples yet (or no block folder) simply has no attempts; a folder we may not list is not that.
    if (systemErrorCode(error) === 'ENOENT') return []
    throw new RunError('RUN_RECORD_INVALID', `the run's records cannot be listed (${error instanceof Error ? error.message : String(error)}); check the permissions of the run directory`, { file: dir, cause: error })
  }
  return entries.filter(entry => entry.isDirectory()).map(entry => entry.name).sort()
}

/** Parses a JSON file with `schema`; returns an Error describing the problem instead of throwing. */
async function readJsonFile<T extends z.ZodType>(path: string, schema: T): Promise<z.infer<T> | Error> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    return new Error(`${path}: file is missing or unreadable (${error instanceof Error ? error.message : String(error)})`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return new Error(`${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return new Error(`${path}: ${issue === undefined ? 'invalid' : `${issue.path.join('.') || '(root)'}: ${issue.message}`}`)
  }
  return parsed.data
}
