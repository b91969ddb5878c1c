// `awb fixtures`: not implemented yet (synthetic package issue); exits with a clear message instead.
import { UsageError } from '../usage-error.ts'

export async function run(_args: unknown[]): Promise<number> {
  throw new UsageError('`awb fixtures` is not available yet in this version')
}
