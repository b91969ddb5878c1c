// Creates and updates one run directory in the reference layout (runner.md §5); scores and runs nothing.
import { randomBytes } from 'node:crypto'
import { appendFile, mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { writeFileAtomic } from '../shared/atomic-write.ts'
import { currentProcess } from './chain-status.ts'
import { RUN_KIND, RUN_VERSION, type ResultJson, type RunJson } from './schemas.ts'

export interface CreateRunOptions {
  /** Parent folder of run directories (e.g. `runs/`). */
  runsRoot: string
  /** `{<block>: [sample ids]}` in run order. */
  selection: Record<string, string[]>
  /** Task text per block, exactly as sent. */
  tasks: Record<string, string>
  referenceModes: Record<string, string>
  /** Every option the run was started with (recorded as `options`). */
  options: Record<string, unknown>
  benchmark: { root: string; frozen: boolean; revision: string | null }
  versions?: Record<string, string>
  /** The run this one resumes, or null. */
  sourceRun?: string | null
  codeCommit?: string | null
  /** Clock for timestamps and the run id (tests pass a fixed one). */
  now?: () => Date
}

export type RunStatus = RunJson['status']

/** `<UTC ISO timestamp without colons>-<8 hex>`, e.g. `2026-12-02T134500.123Z-1a2b3c4d` (runner.md §3). */
export function newRunId(now: Date): string {
  return `${now.toISOString().replaceAll(':', '')}-${randomBytes(4).toString('hex')}`
}

/** A run directory being written. Every file is written atomically; nothing earlier is ever overwritten. */
export class RunWriter {
  readonly dir: string
  private json: RunJson & Record<string, unknown>
  private readonly now: () => Date

  private constructor(dir: string, json: RunJson & Record<string, unknown>, now: () => Date) {
    this.dir = dir
    this.json = json
    this.now = now
  }

  /** Creates `<runsRoot>/<run-id>/run.json` (status `running`). */
  static async create(options: CreateRunOptions): Promise<RunWriter> {
    const now = options.now ?? (() => new Date())
    const started = now()
    const dir = resolve(options.runsRoot, newRunId(started))
    await mkdir(resolve(options.runsRoot), { recursive: true })
    await mkdir(dir) // not recursive: an existing run directory is never reused
    const json = {
      version: RUN_VERSION,
      kind: RUN_KIND,
      status: 'running',
      started_at: started.toISOString(),
      source_run: options.sourceRun ?? null,
      options: options.options,
      selection: options.selection,
      benchmark: { local: options.benchmark.root, frozen_release: options.benchmark.frozen, revision: options.benchmark.revision },
      tasks: options.tasks,
      reference_modes: options.referenceModes,
      code_commit: options.codeCommit ?? null,
      versions: options.versions ?? {},
      errors: [] as string[],
      // Lets a reader tell a run whose process died (kill -9, a crash) from one still running.
      process: currentProcess(),
    } satisfies RunJson & Record<string, unknown>
    const writer = new RunWriter(dir, json, now)
    await writer.writeRunJson()
    return writer
  }

  sampleDir(block: string, sampleId: string): string {
    return join(this.dir, 'blocks', block, 'samples', sampleId.split('/').join('--'))
  }

  /** Writes `input.json`, `prompt.txt`, an empty `conversation.jsonl` and a pending `result.json`. */
  async writeSampleInputs(block: string, sampleId: string, input: Record<string, unknown>, prompt: string): Promise<void> {
    const dir = this.sampleDir(block, sampleId)
    await writeFileAtomic(join(dir, 'input.json'), `${JSON.stringify({ block, sample_id: sampleId, ...input }, null, 2)}\n`)
    await writeFileAtomic(join(dir, 'prompt.txt'), prompt)
    await writeFileAtomic(join(dir, 'conversation.jsonl'), '')
    await this.writeResult(block, sampleId, { status: 'pending' })
  }

  async writeResult(block: string, sampleId: string, result: ResultJson & Record<string, unknown>): Promise<void> {
    await writeFileAtomic(join(this.sampleDir(block, sampleId), 'result.json'), `${JSON.stringify(result, null, 2)}\n`)
  }

  /** Saves the exported final episode; returns its path. */
  async saveFinalEpisode(block: string, sampleId: string, bytes: Uint8Array): Promise<string> {
    const path = join(this.sampleDir(block, sampleId), 'final.episode.zip')
    await writeFileAtomic(path, bytes)
    return path
  }

  /** Writes one more file of a sample (e.g. `final.png`) atomically. */
  async saveSampleFile(block: string, sampleId: string, name: string, bytes: Uint8Array): Promise<void> {
    await writeFileAtomic(join(this.sampleDir(block, sampleId), name), bytes)
  }

  /** Appends one `{timestamp, type, …}` record to `conversation.jsonl` (runner.md §5.4). */
  async appendConversation(block: string, sampleId: string, record: { type: string } & Record<string, unknown>): Promise<void> {
    const line = JSON.stringify({ timestamp: this.now().toISOString(), ...record })
    await appendFile(join(this.sampleDir(block, sampleId), 'conversation.jsonl'), `${line}\n`)
  }

  /** Sets the final run status (`completed`, `failed`, `paused` with its reason) with any run-level errors. */
  async finish(status: RunStatus, errors: readonly string[] = [], pauseReason?: string): Promise<void> {
    this.json = { ...this.json, status, errors: [...errors], ...(pauseReason === undefined ? {} : { pause_reason: pauseReason }), finished_at: this.now().toISOString() }
    await this.writeRunJson()
  }

  /** Records the samples this run attempts (run.json `selection`) as they start. */
  async updateSelection(selection: Record<string, string[]>): Promise<void> {
    this.json = { ...this.json, selection }
    await this.writeRunJson()
  }

  private async writeRunJson(): Promise<void> {
    await writeFileAtomic(join(this.dir, 'run.json'), `${JSON.stringify(this.json, null, 2)}\n`)
  }
}
