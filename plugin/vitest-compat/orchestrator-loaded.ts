// Whether a block's test page came up with Vitest's orchestrator. The page's error catcher, a module script of its own,
// connects to Vitest even when the orchestrator module failed to load (a request of it answered 404 or 504, such as
// when another Vitest process rebuilt Vite's dependency cache under the page); Vitest then waits for an orchestrator
// that never reports ready until its connect limit (180 s in a block) and says only that the session did not connect.
// Checked once the page has loaded, it fails at once and names the request that failed.
import type { Page } from 'playwright'

/**
 * How long a page that loaded with no failed request may take to set up its orchestrator. Module scripts run before
 * the load event, so this only covers one that waits on something first; far below the block's connect limit.
 */
export const ORCHESTRATOR_PATIENCE_MS = 30_000

/** What the page says about itself: its orchestrator exists, and which of its requests failed (HTTP status ≥ 400). */
interface PageState {
  ready: boolean
  failed: string[]
}

/**
 * Runs in the page. Before the orchestrator exists, the page's requests are its own scripts and their imports (no
 * agent has run): a failed one is a module graph that did not load.
 */
function readPageState(): PageState {
  const state = (window as unknown as { __vitest_browser_runner__?: { orchestrator?: unknown } }).__vitest_browser_runner__
  const failed = performance.getEntriesByType('resource').flatMap((entry) => {
    const { responseStatus, initiatorType } = entry as PerformanceResourceTiming
    return responseStatus >= 400 && initiatorType !== 'fetch' && initiatorType !== 'xmlhttprequest' ? [`${entry.name} (HTTP ${responseStatus})`] : []
  })
  return { ready: state?.orchestrator !== undefined, failed }
}

/**
 * Undefined when the loaded page has its orchestrator, or when the page went away meanwhile (the recovery handles a
 * lost page); otherwise one clause on what is wrong: the failed requests, or that none failed and still nothing came.
 */
export async function orchestratorProblem(page: Page, patienceMs = ORCHESTRATOR_PATIENCE_MS): Promise<string | undefined> {
  try {
    const settled = await page.waitForFunction(() => {
      const state = (window as unknown as { __vitest_browser_runner__?: { orchestrator?: unknown } }).__vitest_browser_runner__
      return state?.orchestrator !== undefined || performance.getEntriesByType('resource').some((entry) => {
        const { responseStatus, initiatorType } = entry as PerformanceResourceTiming
        return responseStatus >= 400 && initiatorType !== 'fetch' && initiatorType !== 'xmlhttprequest'
      })
    }, undefined, { timeout: patienceMs, polling: 100 }).then(() => true, (error: unknown) => {
      if (error instanceof Error && error.name === 'TimeoutError') return false
      throw error
    })
    const state = await page.evaluate(readPageState)
    if (state.ready) return undefined
    if (state.failed.length > 0) return `these requests of the page failed: ${state.failed.join(', ')}`
    return settled ? undefined : `no request of the page failed, and it had no orchestrator ${patienceMs / 1000} s after loading`
  } catch {
    // The page closed or crashed while being checked: a lost page, which the recovery reports on its own.
    return undefined
  }
}
