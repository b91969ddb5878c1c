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

/** What the page says about itself once it has settled: its orchestrator exists, or requests of it failed. */
interface SettledPage {
  ready: boolean
  failed: string[]
}

/**
 * Runs in the page, polled: false until the orchestrator exists or a request failed (HTTP status ≥ 400). Before the
 * orchestrator exists the page's requests are its own scripts and their imports (no agent has run), so a failed one
 * is a module graph that did not load.
 */
function settledPage(): SettledPage | false {
  const state = (window as unknown as { __vitest_browser_runner__?: { orchestrator?: unknown } }).__vitest_browser_runner__
  const ready = state?.orchestrator !== undefined
  const failed = performance.getEntriesByType('resource').flatMap((entry) => {
    const { responseStatus, initiatorType } = entry as PerformanceResourceTiming
    return responseStatus >= 400 && initiatorType !== 'fetch' && initiatorType !== 'xmlhttprequest' ? [`${entry.name} (HTTP ${responseStatus})`] : []
  })
  return ready || failed.length > 0 ? { ready, failed } : false
}

/**
 * Undefined when the loaded page has its orchestrator, or when the page went away meanwhile (the recovery handles a
 * lost page); otherwise one clause on what is wrong: the failed requests, or that none failed and still nothing came.
 */
export async function orchestratorProblem(page: Page, patienceMs = ORCHESTRATOR_PATIENCE_MS): Promise<string | undefined> {
  let settled: SettledPage
  try {
    settled = await (await page.waitForFunction(settledPage, undefined, { timeout: patienceMs, polling: 100 })).jsonValue() as SettledPage
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return `no request of the page failed, and it had no orchestrator ${patienceMs / 1000} s after loading`
    // The page closed or crashed while being checked: a lost page, which the recovery reports on its own.
    return undefined
  }
  return settled.ready ? undefined : `these requests of the page failed: ${settled.failed.join(', ')}`
}
