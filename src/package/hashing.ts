// SHA-256 of bytes and of files (streamed, so a multi-GB package never has to fit in memory); no checks here.
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'

/** Lowercase hex SHA-256 of `bytes`. */
export function sha256Bytes(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Lowercase hex SHA-256 of the file at `absolutePath`, read as a stream. */
export async function sha256File(absolutePath: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(absolutePath)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}
