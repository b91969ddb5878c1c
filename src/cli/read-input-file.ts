// Reads a file named on the command line; a missing or unreadable file is a usage error (exit 2), not a failure.
import { readFile } from 'node:fs/promises'
import { UsageError } from './usage-error.ts'

export async function readInputFile(path: string, flag: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path))
  } catch (error) {
    const reason = error instanceof Error && 'code' in error && error.code === 'ENOENT' ? 'no such file' : String(error)
    throw new UsageError(`${flag} ${path}: ${reason}`)
  }
}

/** Parses JSON bytes; invalid JSON throws a SyntaxError naming the file (the caller turns it into an error row). */
export function parseJsonBytes(bytes: Uint8Array, path: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes))
  } catch (error) {
    throw new SyntaxError(`${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}
