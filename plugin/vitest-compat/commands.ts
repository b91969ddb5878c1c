// Vitest's built-in browser commands that touch host files, replaced by a refusal in block projects: page code (the
// agent) must not read the package or plant files in the project. The provider's own commands that touch files
// (upload, screenshots, traces) cannot be replaced through the config: `api.allowWrite: false` and `server.fs.deny`
// hold them, and the startup check verifies the former.
import type { BrowserCommand } from 'vitest/node'
import type { VitestAdapter } from './adapter.ts'

export const REFUSAL_MESSAGE = 'is disabled in benchmark block projects: page code (the agent) may not touch host files. The harness reaches the host only through its own awb* commands.'

/**
 * Every refusal made in this process. Process-wide (a global slot), since Vite bundles a config file with its
 * relative imports, so each evaluation of the config may carry its own copy of this module.
 */
function refusals(): WeakSet<object> {
  const slot = Symbol.for('assembly-world-bench.command-refusals')
  const existing: unknown = Reflect.get(globalThis, slot)
  if (existing instanceof WeakSet) return existing
  const made = new WeakSet<object>()
  Reflect.set(globalThis, slot, made)
  return made
}

/** Whether `command` is one of the refusals refusedVitestCommands made. */
export function isRefusal(command: unknown): boolean {
  return typeof command === 'function' && refusals().has(command)
}

export function refusedVitestCommands(adapter: VitestAdapter): Record<string, BrowserCommand<unknown[]>> {
  const refuse = (name: string): BrowserCommand<unknown[]> => {
    const refusal: BrowserCommand<unknown[]> = () => {
      throw new Error(`${name} ${REFUSAL_MESSAGE}`)
    }
    refusals().add(refusal)
    return refusal
  }
  return Object.fromEntries(adapter.hostFileCommands.map(name => [name, refuse(name)]))
}
