// The startup check: before the first sample, every block project's resolved config must carry each integrity defence
// the adapter applies. A config or plugin that undoes one (or a Vitest that ignores it) stops the run here, naming the
// defence, instead of running without it. Also words the one-line report of what is on.
import type { TestProject } from 'vitest/node'
import type { VitestAdapter } from './adapter.ts'
import { isRefusal } from './commands.ts'
import { VitestCompatError } from './select.ts'

/** The defences the check names; the same words appear in SECURITY.md. */
export const DEFENCES = {
  apiLockdown: 'browser API lock-down (no file writes, no code execution through Vitest\'s browser API)',
  hostFileCommands: 'host-file commands refused (Vitest\'s built-in readFile/writeFile/removeFile/screenshot commands)',
} as const

/** Throws a VitestCompatError naming the first defence `project` (a block project) lacks. */
export function verifyBlockProject(adapter: VitestAdapter, project: TestProject): void {
  const api = adapter.resolvedApi(project)
  if (api.allowWrite || api.allowExec) {
    const allowed = [api.allowWrite ? 'allowWrite' : undefined, api.allowExec ? 'allowExec' : undefined].filter(Boolean).join(' and ')
    throw notApplied(DEFENCES.apiLockdown, project, `its resolved ${adapter.apiOption} has ${allowed} on; a config or plugin re-enabled it after assemblyWorld() set it off. Remove that setting: block projects run agent code, which must not write host files or execute code through Vitest`)
  }
  const commands: Record<string, unknown> = project.config.browser.commands ?? {}
  const missing = adapter.hostFileCommands.filter(name => !isRefusal(commands[name]))
  if (missing.length > 0) {
    throw notApplied(DEFENCES.hostFileCommands, project, `its resolved browser.commands do not refuse ${missing.join(', ')}; a config or plugin replaced the refusal. Remove that command override from block projects`)
  }
}

function notApplied(defence: string, project: TestProject, why: string): VitestCompatError {
  return new VitestCompatError('VITEST_DEFENCE_NOT_APPLIED', `assembly-world-bench: the integrity defence "${defence}" cannot be applied in project ${project.name} on Vitest ${project.vitest.version}: ${why}. The run stops before its first sample.`)
}

export interface CapabilityReport {
  adapter: VitestAdapter
  /** Why browser recovery (and with it the hung-page watch) is off; undefined when on. */
  recoveryOff: string | undefined
}

/** One line for the run's log: the Vitest version, the adapter, and each capability on or off. */
export function describeCapabilities({ adapter, recoveryOff }: CapabilityReport): string {
  const recovery = recoveryOff === undefined ? 'on' : `off (${recoveryOff})`
  return [
    `awb: Vitest ${adapter.version} (${adapter.name} adapter):`,
    `browser API lock-down [${adapter.apiOption}] on,`,
    `host-file commands refused [${adapter.hostFileCommands.length}] on,`,
    `browser recovery ${recovery},`,
    `hung-page watch ${recoveryOff === undefined ? 'on' : 'off (it closes pages through browser recovery)'},`,
    'Ctrl-C drain on,',
    `JUnit suites named by block [${adapter.junitSuiteNames}] on`,
  ].join(' ')
}

/** Set once this process printed its report (configureVitest runs once per project, maybe on several plugin copies). */
const REPORTED_SLOT = Symbol.for('assembly-world-bench.capabilities-reported')

/** Prints describeCapabilities for the first block project of the process, with recovery probed on `project`. */
export function reportCapabilitiesOnce(adapter: VitestAdapter, project: TestProject, log: (line: string) => void): void {
  if (Reflect.get(globalThis, REPORTED_SLOT) === true) return
  Reflect.set(globalThis, REPORTED_SLOT, true)
  log(describeCapabilities({ adapter, recoveryOff: adapter.missingRecoveryInternals(project) }))
}
