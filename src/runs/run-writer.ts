// Creates and updates one run directory in the reference layout (runner.md §5), sealing each sample as it ends and
// capping what a sample's conversation log may hold; scores and runs nothing.
import { randomBytes } from 'node:crypto'
import { appendFile, mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { markAnswersFolder } from '../shared/answer-folders.ts'
import { writeFileAtomic } from '../shared/atomic-write.ts'
import { currentProcess } from './run-process.ts'
import { RunError } from './errors.ts'
import { SEAL_VERSION, SEALS_FILE, sampleFolderName } from './seal-format.ts'
import { SealLog } from './seal-log.ts'
import { RUN_KIND, RUN_VERSION, type ResultJson, type RunJson } from './schemas.ts'

/**
 * Most bytes one sample's conversation.jsonl may hold (64 MiB). Page code and agent programs decide what is recorded
 * there (a page grew one log to 629 MB in 55 s); far above a real transcript with images, far below the disk.
 * The other files a page can make Node write are bounded where they are accepted: the final episode and the final
 * capture, once each (MAX_FINAL_EPISODE_BYTES, MAX_CAPTURE_BYTES in the harness).
 */
export const MAX_CONVERSATION_BYTES = 64 * 1024 * 1024

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
  /** Cap of each sample's conversation.jsonl in bytes; default MAX_CONVERSATION_BYTES. */
  conversationCapBytes?: number
}

export type RunStatus = RunJson['status']

/** `<UTC ISO timestamp without colons>-<8 hex>`, e.g. `2026-12-02T134500.123Z-1a2b3c4d` (runner.md §3). */
export function newRunId(now: Date): string {
  return `${now.toISOString().replaceAll(':', '')}-${randomBytes(4).toString('hex')}`
}

/**
 * A run directory being written. Every file is written atomically (conversation.jsonl is appended); nothing earlier
 * is ever overwritten. A sample's writes run in the order they are asked for. When a sample's result.json is written
 * with its final status (`completed` or `failed`) the sample has ended: its folder is sealed (seals.jsonl) and any
 * later write to it is refused (RUN_SAMPLE_SEALED).
 */
export class RunWriter {
  readonly dir: string
  private json: RunJson & Record<string, unknown>
  private readonly now: () => Date
  private readonly seals: SealLog
  private readonly conversationCap: number
  /** Per sample folder: the last write asked for; the next one (and the seal) waits for it. */
  private readonly writes = new Map<string, Promise<unknown>>()
  /** Sample folders whose final result has been asked for: sealed, or about to be. */
  private readonly ended = new Set<string>()
  /** Bytes of conversation.jsonl per sample folder, counted when each append is accepted. */
  private readonly conversationBytes = new Map<string, number>()
  /** Samples whose conversation reached its cap: every later record is refused with the same error. */
  private readonly capped = new Map<string, RunError>()

  private constructor(dir: string, json: RunJson & Record<string, unknown>, now: () => Date, conversationCap: number) {
    this.dir = dir
    this.json = json
    this.now = now
    this.seals = new SealLog(dir, now)
    this.conversationCap = conversationCap
  }

  /** Creates `<runsRoot>/<run-id>/run.json` (status `running`). */
  static async create(options: CreateRunOptions): Promise<RunWriter> {
    const now = options.now ?? (() => new Date())
    const started = now()
    const dir = resolve(options.runsRoot, newRunId(started))
    await mkdir(resolve(options.runsRoot), { recursive: true })
    await mkdir(dir) // not recursive: an existing run directory is never reused
    await markAnswersFolder(dir)
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
      // This run seals its samples: a reader that finds no seals.jsonl knows it was removed (count, head: at finish).
      seals: { file: SEALS_FILE, version: SEAL_VERSION },
    } satisfies RunJson & Record<string, unknown>
    const writer = new RunWriter(dir, json, now, options.conversationCapBytes ?? MAX_CONVERSATION_BYTES)
    await writer.writeRunJson()
    return writer
  }

  sampleDir(block: string, sampleId: string): string {
    return join(this.dir, 'blocks', block, 'samples', sampleFolderName(sampleId))
  }

  /** Writes `input.json`, `prompt.txt`, an empty `conversation.jsonl` and a pending `result.json`. */
  async writeSampleInputs(block: string, sampleId: string, input: Record<string, unknown>, prompt: string): Promise<void> {
    const dir = this.sampleDir(block, sampleId)
    await this.sampleWrite(block, sampleId, async () => {
      await writeFileAtomic(join(dir, 'input.json'), `${JSON.stringify({ block, sample_id: sampleId, ...input }, null, 2)}\n`)
      await writeFileAtomic(join(dir, 'prompt.txt'), prompt)
      await writeFileAtomic(join(dir, 'conversation.jsonl'), '')
    })
    await this.writeResult(block, sampleId, { status: 'pending' })
  }

  /** Writes result.json; a final status (`completed`, `failed`) ends the sample and seals its folder. */
  async writeResult(block: string, sampleId: string, result: ResultJson & Record<string, unknown>): Promise<void> {
    const written = this.sampleWrite(block, sampleId, () => writeFileAtomic(join(this.sampleDir(block, sampleId), 'result.json'), `${JSON.stringify(result, null, 2)}\n`))
    if (result.status === 'completed' || result.status === 'failed') {
      const dir = this.sampleDir(block, sampleId)
      // Marked now, not once written: a record racing the final result must not slip in after it.
      this.ended.add(dir)
      const sealed = written.then(() => this.seals.seal(block, sampleId, dir))
      this.writes.set(dir, sealed.catch(() => undefined))
      await sealed
      return
    }
    await written
  }

  /** Saves the exported final episode; returns its path. */
  async saveFinalEpisode(block: string, sampleId: string, bytes: Uint8Array): Promise<string> {
    const path = join(this.sampleDir(block, sampleId), 'final.episode.zip')
    await this.sampleWrite(block, sampleId, () => writeFileAtomic(path, bytes))
    return path
  }

  /** Writes one more file of a sample (e.g. `final.png`) atomically. */
  async saveSampleFile(block: string, sampleId: string, name: string, bytes: Uint8Array): Promise<void> {
    await this.sampleWrite(block, sampleId, () => writeFileAtomic(join(this.sampleDir(block, sampleId), name), bytes))
  }

  /**
   * Appends one `{timestamp, type, …}` record to `conversation.jsonl` (runner.md §5.4). A record that would take the
   * log past its cap is refused (RUN_RECORD_CAP), and so is every later one: the log never grows past the cap.
   */
  async appendConversation(block: string, sampleId: string, record: { type: string } & Record<string, unknown>): Promise<void> {
    const dir = this.sampleDir(block, sampleId)
    const line = `${JSON.stringify({ timestamp: this.now().toISOString(), ...record })}\n`
    this.assertNotEnded(block, sampleId)
    this.reserveConversation(block, sampleId, dir, Buffer.byteLength(line))
    await this.sampleWrite(block, sampleId, () => appendFile(join(dir, 'conversation.jsonl'), line))
  }

  /** The seal chain so far: lines written to seals.jsonl and the hash of the last one (its head). */
  get sealed(): { count: number; head: string | null } {
    return this.seals.written
  }

  /** The cap error of a sample whose conversation reached its cap, if it did. */
  recordCapError(block: string, sampleId: string): RunError | undefined {
    return this.capped.get(this.sampleDir(block, sampleId))
  }

  /** Counts `bytes` more for the sample's log, or refuses them; synchronous, so concurrent appends cannot overshoot. */
  private reserveConversation(block: string, sampleId: string, dir: string, bytes: number): void {
    const refused = this.capped.get(dir)
    if (refused !== undefined) throw refused
    const used = this.conversationBytes.get(dir) ?? 0
    if (used + bytes > this.conversationCap) {
      const error = new RunError('RUN_RECORD_CAP', `${block} / ${sampleId}: conversation.jsonl has reached its cap of ${formatBytes(this.conversationCap)} (${used} bytes recorded; a record of ${bytes} bytes was refused, and every later one is). The sample's agent is stopped and the sample fails. An agent that needs a longer log must record less (smaller images or tool results) or run with a larger cap (RunWriter conversationCapBytes, default MAX_CONVERSATION_BYTES)`, { file: join(dir, 'conversation.jsonl') })
      this.capped.set(dir, error)
      throw error
    }
    this.conversationBytes.set(dir, used + bytes)
  }

  /** Runs `write` after the sample's earlier writes; refused once the sample has ended. */
  private sampleWrite<T>(block: string, sampleId: string, write: () => Promise<T>): Promise<T> {
    this.assertNotEnded(block, sampleId)
    const dir = this.sampleDir(block, sampleId)
    const done = (this.writes.get(dir) ?? Promise.resolve()).then(write)
    this.writes.set(dir, done.catch(() => undefined))
    return done
  }

  private assertNotEnded(block: string, sampleId: string): void {
    const dir = this.sampleDir(block, sampleId)
    if (this.ended.has(dir)) throw new RunError('RUN_SAMPLE_SEALED', `${block} / ${sampleId} has ended and its records are sealed (${SEALS_FILE}); nothing more is written to it`, { file: dir })
  }

  /** Sets the final run status (`completed`, `failed`, `paused` with its reason) with any run-level errors. */
  async finish(status: RunStatus, errors: readonly string[] = [], pauseReason?: string): Promise<void> {
    // Every sample write, seals included, lands before run.json says the run is over and how its seal chain ends.
    await Promise.all(this.writes.values())
    await this.seals.settled()
    const seals = { file: SEALS_FILE, version: SEAL_VERSION, ...this.seals.written }
    this.json = { ...this.json, status, errors: [...errors], ...(pauseReason === undefined ? {} : { pause_reason: pauseReason }), finished_at: this.now().toISOString(), seals }
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

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB (${bytes} bytes)` : `${bytes} bytes`
}
