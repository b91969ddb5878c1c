// `awb score`: not implemented yet (see the open issues); exits with a clear message instead of failing silently.
import { UsageError } from '../usage-error.ts'

export async function run(_args: unknown[]): Promise<number> {
  throw new UsageError('`awb score` is not available yet in this version')
}
