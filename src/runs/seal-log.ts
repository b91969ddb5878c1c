// Appends seals to a run's seals.jsonl (format in seal-format.ts): one at a time, each flushed to disk before the
// next starts, so the chain is written in the order it links and a crash leaves at worst a torn last line.
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { readFolderContents } from './sample-files.ts'
import { lineHash, SEAL_VERSION, SEALS_FILE, sealLine, type SealEntry } from './seal-format.ts'

export class SealLog {
  private readonly path: string
  private readonly now: () => Date
  private head: string | null = null
  private count = 0
  /** The last seal asked for: the next one starts when it has settled. */
  private tail: Promise<unknown> = Promise.resolve()

  /** `runDir` is a new run's directory: its chain starts empty. */
  constructor(runDir: string, now: () => Date) {
    this.path = join(runDir, SEALS_FILE)
    this.now = now
  }

  /** Lines written so far and the hash of the last (run.json records both when the run finishes). */
  get written(): { count: number; head: string | null } {
    return { count: this.count, head: this.head }
  }

  /**
   * Seals `block / sampleId`: hashes every file in `dir` now and appends the line. The caller has stopped writing to
   * the folder. Resolves once the line is on disk.
   */
  seal(block: string, sampleId: string, dir: string): Promise<SealEntry> {
    const sealed = this.tail.then(() => this.append(block, sampleId, dir))
    this.tail = sealed.catch(() => undefined)
    return sealed
  }

  /** Resolves when every seal asked for so far has been written (or has failed). */
  async settled(): Promise<void> {
    await this.tail
  }

  private async append(block: string, sampleId: string, dir: string): Promise<SealEntry> {
    const contents = await readFolderContents(dir)
    const files = Object.fromEntries([...(contents?.files ?? [])].map(([name, digest]) => [name, digest.sha256]))
    const bytes = [...(contents?.files.values() ?? [])].reduce((sum, digest) => sum + digest.bytes, 0)
    const entry: SealEntry = { seal: SEAL_VERSION, block, sample_id: sampleId, files, bytes, sealed_at: this.now().toISOString(), prev: this.head }
    const line = sealLine(entry)
    const handle = await open(this.path, 'a')
    try {
      await handle.writeFile(`${line}\n`)
      await handle.sync()
    } finally {
      await handle.close()
    }
    this.head = lineHash(line)
    this.count++
    return entry
  }
}
