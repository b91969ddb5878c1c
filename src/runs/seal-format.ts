// The format of `seals.jsonl`, a run's append-only record of what each ended sample's folder held, and of run.json
// `seals` (docs/runs.md, "What a run produces"). One line per sealed sample; each line names the SHA-256 of the line before it, so
// an edited, removed, inserted or moved line breaks the chain. Pure: formats, parses and links lines, reads no file.
import { createHash } from 'node:crypto'
import * as z from 'zod'

/** The seal file, in the run directory. */
export const SEALS_FILE = 'seals.jsonl'
/** The seal line format written here; a line of another version is not trusted. */
export const SEAL_VERSION = 1

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/)

/**
 * A block name or sample folder name as a seal may name it: one path segment. A seal is data an attacker may have
 * written, and the folder it names is hashed on verification: it must never lead outside the run's `blocks/`.
 */
const SegmentSchema = z.string().min(1).refine(name => name !== '.' && name !== '..' && !/[/\\\0]/.test(name), 'must be one folder name')

/** A file name inside a sample folder, `/`-separated below it; no `.`/`..` segment, no absolute path. */
const FileNameSchema = z.string().min(1).refine(name => name.split('/').every(part => part !== '' && part !== '.' && part !== '..' && !/[\\\0]/.test(part)), 'must be a path inside the sample folder')

/** One line of seals.jsonl: the SHA-256 of every file the sample's folder held when the sample ended. */
export const SealEntrySchema = z.strictObject({
  seal: z.literal(SEAL_VERSION),
  block: SegmentSchema,
  sample_id: z.string().min(1).refine(id => SegmentSchema.safeParse(sampleFolderName(id)).success, 'must map to one folder name'),
  /** File name (relative to the sample folder) → SHA-256 of its bytes. */
  files: z.record(FileNameSchema, Sha256Schema),
  /** Total bytes of those files. */
  bytes: z.number().int().nonnegative(),
  sealed_at: z.string(),
  /** SHA-256 of the previous line (its UTF-8 bytes, no newline); null on the first line. */
  prev: Sha256Schema.nullable(),
})
export type SealEntry = z.infer<typeof SealEntrySchema>

/**
 * run.json `seals`: set when the run is created (so a run whose seals.jsonl was deleted is not taken for one made
 * before seals), `count` and `head` added when it finishes (so lines removed from or added to the end are seen).
 */
export const RunSealsFieldSchema = z.looseObject({
  file: z.literal(SEALS_FILE),
  version: z.literal(SEAL_VERSION),
  count: z.number().int().nonnegative().optional(),
  head: Sha256Schema.nullable().optional(),
})
export type RunSealsField = z.infer<typeof RunSealsFieldSchema>

/** The folder of a sample id inside `blocks/<block>/samples/` (runner.md §5: `/` becomes `--`). */
export function sampleFolderName(sampleId: string): string {
  return sampleId.split('/').join('--')
}

/** The line of `entry`, without newline: keys in one fixed order, file names sorted, so equal seals give equal lines. */
export function sealLine(entry: SealEntry): string {
  const files = Object.fromEntries(Object.keys(entry.files).sort().map(name => [name, entry.files[name]]))
  return JSON.stringify({ seal: entry.seal, block: entry.block, sample_id: entry.sample_id, files, bytes: entry.bytes, sealed_at: entry.sealed_at, prev: entry.prev })
}

/** What the next line names as `prev`: the SHA-256 of this line's UTF-8 bytes, newline excluded. */
export function lineHash(line: string): string {
  return createHash('sha256').update(line, 'utf8').digest('hex')
}

/** One line of seals.jsonl as read back. */
export interface SealLineRecord {
  /** 1-based line number. */
  line: number
  /** The parsed seal, or undefined when the line is not one. */
  entry: SealEntry | undefined
  /** Whether the chain vouches for this line: false from the first break on (and for a line that is no seal). */
  trusted: boolean
}

/** seals.jsonl read back and linked. */
export interface SealChain {
  lines: SealLineRecord[]
  /** Hash of the last complete line; null when there is none. */
  head: string | null
  /** What breaks the chain, one sentence each; empty when every line follows the one before it. */
  problems: string[]
  /** The text ends in a line without its newline: a write cut short, or one still under way. It seals nothing. */
  torn: boolean
}

/**
 * Parses and links seals.jsonl. A broken link between lines k−1 and k cannot say which of the two was changed, so
 * every line from k−1 on is untrusted. A last line without its newline is not read (see `torn`).
 */
export function readSealChain(text: string): SealChain {
  const problems: string[] = []
  const raw = text.split('\n')
  const last = raw.pop()
  const torn = last !== undefined && last !== ''
  let firstUntrusted = Number.POSITIVE_INFINITY
  let previous: string | null = null
  const parsed = raw.map((line, index) => {
    const number = index + 1
    const expected = previous
    previous = lineHash(line)
    const entry = parseSealLine(line)
    if (entry instanceof Error) {
      problems.push(`line ${number} of ${SEALS_FILE} is not a seal (${entry.message})`)
      firstUntrusted = Math.min(firstUntrusted, number)
      return { line: number, entry: undefined }
    }
    if (entry.prev !== expected) {
      problems.push(expected === null
        ? `line 1 of ${SEALS_FILE} names a previous line (prev ${entry.prev}) although it is the first`
        : `line ${number} of ${SEALS_FILE} does not follow line ${number - 1} (its prev is ${entry.prev ?? 'null'}, line ${number - 1} hashes to ${expected}): a line was edited, removed, inserted or moved`)
      firstUntrusted = Math.min(firstUntrusted, Math.max(1, number - 1))
    }
    return { line: number, entry }
  })
  const lines = parsed.map(one => ({ ...one, trusted: one.entry !== undefined && one.line < firstUntrusted }))
  return { lines, head: previous, problems, torn }
}

function parseSealLine(line: string): SealEntry | Error {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    return new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  const entry = SealEntrySchema.safeParse(value)
  if (entry.success) return entry.data
  const issue = entry.error.issues[0]
  return new Error(issue === undefined ? 'invalid' : `${issue.path.join('.') || '(root)'}: ${issue.message}`)
}
