// The base class of every user-facing error in the project; domains subclass it in their own errors.ts.

/** Where a failure happened: the file, and inside it the field, block or sample, when known. */
export interface ErrorLocation {
  /** Path of the file involved (as the user gave it, or relative to the package root). */
  file?: string
  /** JSON path or field name inside the file, e.g. `blocks[2].samples.Chair/reidar.sha256`. */
  field?: string
}

export interface AwbErrorOptions extends ErrorLocation {
  cause?: unknown
}

/**
 * A failure the user will see. `code` is stable (`PACKAGE_HASH_MISMATCH`); the message says what
 * failed, where and what to do. The location is also kept as data so callers can render it.
 */
export class AwbError extends Error {
  readonly code: string
  readonly file: string | undefined
  readonly field: string | undefined

  constructor(code: string, message: string, options: AwbErrorOptions = {}) {
    super(formatMessage(message, options), options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.file = options.file
    this.field = options.field
    this.name = new.target.name
  }
}

function formatMessage(message: string, { file, field }: ErrorLocation): string {
  if (file === undefined && field === undefined) return message
  const where = [file, field].filter(part => part !== undefined).join(' → ')
  return `${where}: ${message}`
}
