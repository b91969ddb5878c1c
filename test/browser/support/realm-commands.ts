// Test support (Node): the browser project's command that bundles agent realm code as a run would (agent-bundle.ts),
// so that browser tests run agents in real realms. Modules are named relative to the repository root.
import { resolve } from 'node:path'
import type { BrowserCommand } from 'vitest/node'
import { createAgentRealmBundler, type RealmEntry } from '../../../src/harness/node/index.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const bundler = createAgentRealmBundler({ root: ROOT, protectedDirs: [] })

/** The entry a browser test asks for: a module by its path from the repository root. */
export type TestRealmEntry = { kind: 'built-in' } | { kind: 'api' } | { kind: 'module'; path: string }

export const awbTestRealmCode: BrowserCommand<[entry: TestRealmEntry]> = async (_context, entry) => {
  const resolved: RealmEntry = entry.kind === 'module' ? { kind: 'module', path: resolve(ROOT, entry.path) } : entry
  return bundler.code(resolved)
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    awbTestRealmCode(entry: TestRealmEntry): Promise<string>
  }
}
