// `awb env run`: not implemented yet (environment issue); exits with a clear message instead of failing silently.
import { UsageError } from '../usage-error.ts'

export async function run(_args: unknown[]): Promise<number> {
  throw new UsageError('`awb env` is not available yet in this version')
}
