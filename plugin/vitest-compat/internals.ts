// The Vitest internals both supported majors share (4.1 and 5 have the same browser pool shape): reached by name,
// checked before use, and never touched outside plugin/vitest-compat. Each adapter says whether it uses them.
import type { TestProject } from 'vitest/node'
import type { ApiPermissions, OrchestratorRpc, RecoveryInternals } from './adapter.ts'

type PageOpener = (sessionId: string, pool: unknown) => Promise<void>

/**
 * `project.browser.state.orchestrators` (@vitest/browser BrowserServerState), `project._openBrowserPage`
 * (TestProject), `vitest.state.catchError` (StateManager) and `vitest.isCancelling`; a string says what is missing.
 */
export function browserPoolInternals(project: TestProject): RecoveryInternals | string {
  return reachBrowserPool(project, { beforeBrowserServer: false })
}

/**
 * What of the internals is missing, as early as `configureVitest` (undefined: nothing). Vitest 4.1 creates a project's
 * browser server (and with it `project.browser.state`) only after that hook, so the orchestrators are checked only
 * where it exists; the provider's creation checks them again (browser-recovery.ts), logging what is missing.
 */
export function missingBrowserPoolInternals(project: TestProject): string | undefined {
  const reached = reachBrowserPool(project, { beforeBrowserServer: project.browser === undefined })
  return typeof reached === 'string' ? reached : undefined
}

function reachBrowserPool(project: TestProject, options: { beforeBrowserServer: boolean }): RecoveryInternals | string {
  const state: unknown = Reflect.get(project.browser ?? {}, 'state')
  const orchestrators: unknown = state !== null && typeof state === 'object' ? Reflect.get(state, 'orchestrators') : undefined
  const openBrowserPage: unknown = Reflect.get(project, '_openBrowserPage')
  const runState: unknown = Reflect.get(project.vitest, 'state')
  const catchError: unknown = runState !== null && typeof runState === 'object' ? Reflect.get(runState, 'catchError') : undefined
  const missing = [
    orchestrators instanceof Map || options.beforeBrowserServer ? undefined : 'project.browser.state.orchestrators',
    typeof openBrowserPage === 'function' ? undefined : 'project._openBrowserPage',
    typeof catchError === 'function' ? undefined : 'vitest.state.catchError',
    typeof Reflect.get(project.vitest, 'isCancelling') === 'boolean' ? undefined : 'vitest.isCancelling',
  ].filter(name => name !== undefined)
  if (missing.length > 0) return `Vitest ${project.vitest.version} has no ${missing.join(', ')}`
  const currentOpener = () => Reflect.get(project, '_openBrowserPage') as PageOpener
  return {
    orchestrators: orchestrators as Map<string, OrchestratorRpc>,
    openBrowserPage: (sessionId, pool) => Reflect.apply(currentOpener(), project, [sessionId, pool]) as Promise<void>,
    wrapOpenBrowserPage: (wrap) => {
      const original = currentOpener()
      const open: PageOpener = (sessionId, pool) => Reflect.apply(original, project, [sessionId, pool]) as Promise<void>
      Reflect.set(project, '_openBrowserPage', wrap(open))
    },
    isCancelling: () => Reflect.get(project.vitest, 'isCancelling') === true,
    reportError: error => Reflect.apply(catchError as (error: unknown, type: string) => void, runState, [error, 'Browser Error']),
  }
}

/**
 * The permissions of a resolved `api` object (read without the installed major's types, so each adapter compiles
 * against the other major's types too); anything but an explicit `false` counts as allowed.
 */
export function permissionsOf(api: unknown): ApiPermissions {
  const field = (name: string) => (api !== null && typeof api === 'object' ? Reflect.get(api, name) : undefined) !== false
  return { allowWrite: field('allowWrite'), allowExec: field('allowExec') }
}
