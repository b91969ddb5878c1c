// `vitest --ui` and `--reporter=html` need @vitest/ui, an optional peer: Vitest 5 brings it with its browser provider,
// Vitest 4.1 does not. Vitest's own notice names the package only; this one says how to install the matching version.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Vitest } from 'vitest/node'

/** Whether `@vitest/ui` resolves from `root` (the project) the way Vitest loads it. */
export function hasVitestUi(root: string): boolean {
  try {
    createRequire(join(root, 'package.json')).resolve('@vitest/ui')
    return true
  } catch {
    // Not installed in the project: the caller says how to install it.
    return false
  }
}

/** The line to print when the run asks for the UI or the html reporter and @vitest/ui is missing; undefined otherwise. */
export function missingVitestUiNotice(vitest: Pick<Vitest, 'version'> & { config: { ui?: boolean; root: string; reporters?: unknown } }): string | undefined {
  const reporters = Array.isArray(vitest.config.reporters) ? vitest.config.reporters : []
  const wantsHtml = reporters.some(reporter => reporter === 'html' || (Array.isArray(reporter) && reporter[0] === 'html'))
  if (vitest.config.ui !== true && !wantsHtml) return undefined
  if (hasVitestUi(vitest.config.root)) return undefined
  return `awb: ${vitest.config.ui === true ? 'vitest --ui' : 'the html reporter'} needs @vitest/ui, an optional peer of assembly-world-bench that Vitest ${vitest.version} does not bring: npm install -D @vitest/ui@${vitest.version}`
}
