// What a sample folder holds now: the SHA-256 and size of every regular file in it, and whatever else is there
// (links, devices, empty folders). Used to seal a sample and to check it against its seal; reads, writes nothing.
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { compareCodePoints } from '../shared/code-points.ts'
import { isNotFoundError, systemErrorCode } from '../shared/fs-errors.ts'
import { RunError } from './errors.ts'

export interface FileDigest {
  sha256: string
  bytes: number
}

export interface FolderContents {
  /** Regular files by name (`/`-separated below the folder), in code-point order. */
  files: Map<string, FileDigest>
  /** Entries that are no regular file, by name: what they are (`symbolic link`, `empty folder`, …). */
  others: Map<string, string>
}

/**
 * Reads `dir` recursively without following links (a link is reported, never hashed through: it could point
 * anywhere). Returns undefined when the folder does not exist.
 */
export async function readFolderContents(dir: string): Promise<FolderContents | undefined> {
  const contents: FolderContents = { files: new Map(), others: new Map() }
  try {
    if (!(await lstat(dir)).isDirectory()) return undefined
  } catch (error) {
    // Absent is an answer (the seal check reports the folder removed); a folder we may not reach is not absent.
    if (isNotFoundError(error)) return undefined
    throw new RunError('RUN_RECORD_INVALID', `the sample folder cannot be read (${error instanceof Error ? error.message : String(error)}); check the permissions of the run directory`, { file: dir, cause: error })
  }
  await walk(dir, '', contents)
  contents.files = new Map([...contents.files].sort(([a], [b]) => compareCodePoints(a, b)))
  contents.others = new Map([...contents.others].sort(([a], [b]) => compareCodePoints(a, b)))
  return contents
}

async function walk(dir: string, prefix: string, contents: FolderContents): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true })
  if (entries.length === 0 && prefix !== '') contents.others.set(prefix.slice(0, -1), 'empty folder')
  for (const entry of entries) {
    const name = `${prefix}${entry.name}`
    const path = join(dir, entry.name)
    if (entry.isDirectory()) await walk(path, `${name}/`, contents)
    else if (entry.isFile()) await digestInto(contents, name, path)
    else contents.others.set(name, entry.isSymbolicLink() ? 'symbolic link' : 'special file')
  }
}

async function digestInto(contents: FolderContents, name: string, path: string): Promise<void> {
  try {
    contents.files.set(name, await digestFile(path))
  } catch (error) {
    // Removed since the folder was listed: it is simply not there. Anything else is reported, not thrown.
    if (systemErrorCode(error) !== 'ENOENT') contents.others.set(name, `unreadable file (${error instanceof Error ? error.message : String(error)})`)
  }
}

/** SHA-256 and size of a file, streamed (a conversation log may be tens of MiB). */
export async function digestFile(path: string): Promise<FileDigest> {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk)
    bytes += chunk.length
  }
  return { sha256: hash.digest('hex'), bytes }
}
