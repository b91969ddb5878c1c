// Picks the adapter for the Vitest that runs this process; an unsupported Vitest stops the run before anything starts,
// since the integrity defences could not be applied there (nor checked).
import { version as runningVitest } from 'vitest/node'
import { AwbError } from '../../src/shared/errors.ts'
import type { VitestAdapter } from './adapter.ts'
import { vitest4Adapter } from './vitest-4.ts'
import { vitest5Adapter } from './vitest-5.ts'

/** The peer range package.json declares for `vitest` and `@vitest/browser-playwright`. */
export const SUPPORTED_VITEST = '^4.1.12 || ^5.1.0'

export class VitestCompatError extends AwbError {
  declare readonly code: VitestCompatCode
  constructor(code: VitestCompatCode, message: string) {
    super(code, message)
  }
}

export type VitestCompatCode = 'VITEST_UNSUPPORTED' | 'VITEST_DEFENCE_NOT_APPLIED'

/** The adapter for `version`, or a VitestCompatError naming the supported range. */
export function adapterFor(version: string): VitestAdapter {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  const [major, minor, patch] = match === null ? [NaN, NaN, NaN] : match.slice(1).map(Number) as [number, number, number]
  if (major === 4 && minor === 1 && patch >= 12) return vitest4Adapter(version)
  if (major === 5 && minor >= 1) return vitest5Adapter(version)
  throw new VitestCompatError('VITEST_UNSUPPORTED', `assembly-world-bench supports Vitest ${SUPPORTED_VITEST}, and this is Vitest ${version}: its integrity defences (browser API lock-down, host-file commands refused) are written per Vitest version and cannot be applied here. Install vitest@^5.1 with @vitest/browser-playwright@^5.1 (Node 22.12+), or vitest@~4.1.12 with @vitest/browser-playwright@~4.1.12.`)
}

/** The adapter for the Vitest installed beside the plugin (the one `vitest run` loads). */
export function runningAdapter(): VitestAdapter {
  return adapterFor(runningVitest)
}
