// Which file-system errors mean "nothing is there": the one test, so a catch that treats absence as an answer
// never also swallows "permission denied" or a damaged disk. Reads only an error's `code`; no I/O.

/** The `code` of a Node system error (`ENOENT`, `EACCES`, …); undefined for anything else. */
export function systemErrorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  return typeof code === 'string' ? code : undefined
}

/**
 * True when `error` says the path does not exist: ENOENT; ENOTDIR (a component of the path is a file, so nothing can
 * lie below it); ENAMETOOLONG (no file of that name can exist). Every other failure (EACCES, ELOOP, EISDIR, EIO, …)
 * is a real one and must reach the user.
 */
export function isNotFoundError(error: unknown): boolean {
  const code = systemErrorCode(error)
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG'
}
