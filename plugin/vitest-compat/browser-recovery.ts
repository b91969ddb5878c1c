// Keeps a block project running when its browser dies: wraps the Playwright provider so that a lost page (Chromium
// killed or crashed, the page crashed) is reopened, in a new browser when needed, and the block's test file runs
// again there. It does not record samples: `onLost` tells the Node side, which fails the sample in flight and has
// the new page report what the run already recorded.
//
// Why a wrapper: Vitest (4.1 and 5 alike) runs every browser project under one Promise.all (vitest/dist/chunks/cli-api.*.js,
// createBrowserPool → runWorkspaceTests), and a project's BrowserPool rejects as soon as its orchestrator's
// websocket closes (@vitest/browser setupBrowserRpc: ws 'close' → rpc.$close("Browser connection was closed while
// running tests") → BrowserPool.runNextTest → reject). That rejection ends the whole run, every block included, and
// nothing in the public API can catch it. The pending call that rejects is the orchestrator's `createTesters`,
// reached through `project.browser.state.orchestrators`: this wrapper answers it itself once the page is back. A page
// that cannot be brought back ends only its block: a stand-in lets the pool finish, and the run fails on the error.
import type { PlaywrightProviderOptions } from '@vitest/browser-playwright'
import type { Browser, Page } from 'playwright'
import type { BrowserProviderOption } from 'vitest/node'
import { AwbError, type AwbErrorOptions } from '../../src/shared/errors.ts'
import type { OrchestratorRpc, RecoveryInternals, VitestAdapter } from './adapter.ts'
import { orchestratorProblem } from './orchestrator-loaded.ts'
import { ignoreStaleFrameRace } from './stale-frame-race.ts'

/** How often one block's page may be lost and reopened in a run; the next loss ends that block (`onGiveUp`). */
export const MAX_PAGE_RECOVERIES = 3
/** How long a closed connection waits for Playwright to report the browser gone or the page crashed. */
const LOSS_DIAGNOSIS_MS = 5_000

/** Why a block's page could not be recovered; the cause chain keeps Vitest's closed-connection error. */
export class BrowserRecoveryError extends AwbError {
  declare readonly code: BrowserRecoveryCode

  constructor(code: BrowserRecoveryCode, message: string, options: AwbErrorOptions = {}) {
    super(code, message, options)
  }
}

export type BrowserRecoveryCode = 'BROWSER_PAGE_LOST_TOO_OFTEN' | 'BROWSER_PAGE_NOT_REOPENED' | 'BROWSER_PAGE_NOT_CONNECTED' | 'BROWSER_PAGE_NOT_LOADED' | 'BROWSER_BLOCK_GIVEN_UP'

/** What was lost, as Playwright saw it; `page-hung`: the recovery closed a page that stopped responding (`closeHungPage`). */
export type PageLossKind = 'browser-exited' | 'page-crashed' | 'connection-closed' | 'page-hung'

export interface PageLoss {
  /** The block whose page was lost (`RecoveryHooks.block`). */
  block: string
  kind: PageLossKind
  /** One sentence for result.json and the test: what died, in which project, and what happens next. */
  reason: string
}

export interface RecoveryHooks {
  /** The block the provider's project runs, named in messages (Vitest's project name adds the browser). */
  block: string
  /** Called once per loss, before the test file runs again in a new page; the run waits for it. */
  onLost(loss: PageLoss): Promise<void>
  /**
   * Called when the page cannot be recovered (lost too often, or it cannot be reopened): the block ends here, its
   * samples not yet finished are to be recorded as failed with `reason`; the other blocks go on and the run fails.
   */
  onGiveUp(end: { block: string; reason: string }): Promise<void>
  /** One line for the run's log. */
  log(line: string): void
  /**
   * Receives, once the provider exists, the function that closes this block's page because it stopped responding
   * (a page agent that never yields): the loss then comes back through `onLost` as `page-hung` with that reason.
   */
  exposeCloseHungPage?(close: (reason: string) => Promise<void>): void
}

/**
 * Stands in for a page given up on: Vitest's pool ends a project once every page it knows of has reported back
 * (BrowserPool.finishSession), and closes every page at the end (`$close`). It has nothing left to run.
 */
const GIVEN_UP_PAGE = {
  createTesters: async (): Promise<void> => {},
  cleanupTesters: async (): Promise<void> => {},
  $close: (): void => {},
} satisfies OrchestratorRpc & Record<string, unknown>

/** The Playwright provider's public fields that the recovery reads and resets. */
interface PlaywrightFields {
  browser: Browser | null
  contexts: Map<string, { close(): Promise<void> }>
  pages: Map<string, Page>
  openPage(sessionId: string, url: string, options: { parallel: boolean }): Promise<void>
  close(): Promise<void>
}

/**
 * `base` (the `playwright()` provider option) with page recovery installed on every provider it creates. Where the
 * adapter finds no internals, the provider is returned as it is and `hooks.log` says that a dead browser ends the run.
 */
export function recoveringPlaywright(base: BrowserProviderOption<PlaywrightProviderOptions>, hooks: RecoveryHooks, adapter: Pick<VitestAdapter, 'recoveryInternals'>): BrowserProviderOption<PlaywrightProviderOptions> {
  return {
    ...base,
    providerFactory(project) {
      const provider = base.providerFactory(project)
      const internals = adapter.recoveryInternals(project)
      if (typeof internals === 'string') {
        hooks.log(`awb: browser recovery is off for block ${hooks.block}: ${internals}. A browser that dies ends the whole run (continue with AWB_RESUME).`)
        return provider
      }
      installRecovery(provider as unknown as PlaywrightFields, internals, hooks)
      return provider
    },
  }
}

function installRecovery(provider: PlaywrightFields, internals: RecoveryInternals, hooks: RecoveryHooks): void {
  let closing = false
  let recoveries = 0
  /** What each session's pool passed when its page was first opened (its reject), reused to reopen it. */
  const pools = new Map<string, unknown>()
  /** Per session: resolves with what Playwright first reported about its page's end. */
  const ends = new Map<string, Promise<PageLossKind>>()
  /** Per session: why the recovery itself closed its page (it stopped responding). */
  const hung = new Map<string, string>()

  hooks.exposeCloseHungPage?.(async (reason) => {
    for (const [sessionId, page] of provider.pages) {
      hung.set(sessionId, reason)
      hooks.log(`awb: ${reason}`)
      // The browser closes the tab even while its renderer spins; the page's connection then closes, as in a crash.
      await page.close({ runBeforeUnload: false }).catch((failure: unknown) => hooks.log(`awb: the hung page of block ${hooks.block} did not close cleanly: ${String(failure)}`))
    }
  })

  const close = provider.close.bind(provider)
  provider.close = () => {
    closing = true
    return close()
  }

  const openPage = provider.openPage.bind(provider)
  provider.openPage = async (sessionId, url, options) => {
    // Vitest 5 closes an idle provider and opens it again for a later run (watch mode): in use again, it recovers again.
    closing = false
    ignoreStaleFrameRace(hooks.log)
    await openPage(sessionId, url, options)
    const page = provider.pages.get(sessionId)
    const browser = provider.browser
    if (page === undefined || browser === null) return
    const problem = await orchestratorProblem(page)
    if (problem !== undefined) {
      throw new BrowserRecoveryError('BROWSER_PAGE_NOT_LOADED', `the test page of block ${hooks.block} loaded without Vitest's orchestrator: ${problem}. `
        + 'If another Vitest process with a different config shares this project\'s Vite cache (node_modules/.vite/vitest/), it rebuilt '
        + 'the pre-bundled dependencies under this page: run one at a time, or give the other config a cacheDir of its own')
    }
    // The provider's own crash listener fails the whole session (and with it the run) when the page's crash is
    // reported before its connection closes, which is a race (more likely since agents run in a frame of their own
    // renderer process). A crash is a loss this recovery handles: the provider's listener goes, this one reports it.
    const emitter = page as unknown as NodeJS.EventEmitter
    for (const listener of emitter.listeners('crash')) emitter.off('crash', listener as (...args: unknown[]) => void)
    ends.set(sessionId, new Promise<PageLossKind>((report) => {
      page.once('crash', () => report('page-crashed'))
      if (!browser.isConnected()) report('browser-exited')
      browser.once('disconnected', () => {
        // The provider would hand out this dead browser (and its pages) again: forget them, so the next page launches
        // a new one. A browser closed by Vitest at the end of the run is forgotten the same way, harmlessly.
        if (provider.browser === browser) {
          provider.browser = null
          provider.contexts.clear()
          provider.pages.clear()
        }
        report('browser-exited')
      })
    }))
  }

  internals.wrapOpenBrowserPage(open => (sessionId, pool) => {
    if (!pools.has(sessionId)) pools.set(sessionId, pool)
    return open(sessionId, pool)
  })

  const recover = async (sessionId: string, error: unknown): Promise<OrchestratorRpc> => {
    const hungReason = hung.get(sessionId)
    hung.delete(sessionId)
    const kind = hungReason === undefined ? await diagnose(ends.get(sessionId)) : 'page-hung'
    if (recoveries >= MAX_PAGE_RECOVERIES) {
      throw new BrowserRecoveryError('BROWSER_PAGE_LOST_TOO_OFTEN', `the page of block ${hooks.block} was lost ${recoveries + 1} times (the last time: ${kind}), more than the ${MAX_PAGE_RECOVERIES} recoveries a block gets`, { cause: error })
    }
    recoveries++
    const reason = hungReason ?? describeLoss(hooks.block, kind)
    if (hungReason === undefined) hooks.log(`awb: ${reason}`)
    await hooks.onLost({ block: hooks.block, kind, reason })
    if (kind !== 'browser-exited') {
      // The browser lives on: close the dead page's context so that the new page starts clean.
      provider.pages.delete(sessionId)
      const context = provider.contexts.get(sessionId)
      provider.contexts.delete(sessionId)
      // Closing may fail with the dead page's own error; the new page does not depend on it.
      await context?.close().catch((failure: unknown) => hooks.log(`awb: the lost page's context of block ${hooks.block} did not close cleanly: ${String(failure)}`))
    }
    try {
      await internals.openBrowserPage(sessionId, pools.get(sessionId) ?? { reject: () => undefined })
    } catch (reopen) {
      // The cause stays Vitest's closed connection: the Node side words the end of the run after it.
      throw new BrowserRecoveryError('BROWSER_PAGE_NOT_REOPENED', `the page of block ${hooks.block} was lost (${kind}) and could not be reopened: ${reopen instanceof Error ? reopen.message : String(reopen)}`, { cause: error })
    }
    const next = internals.orchestrators.get(sessionId)
    if (next === undefined) throw new BrowserRecoveryError('BROWSER_PAGE_NOT_CONNECTED', `the new page of block ${hooks.block} did not connect`, { cause: error })
    return next
  }

  const orchestrators = internals.orchestrators
  const set = orchestrators.set.bind(orchestrators)

  /** Ends the block without its page, and lets the pool (and with it every other block) finish. */
  const giveUp = async (sessionId: string, failure: unknown): Promise<void> => {
    const reason = `${failure instanceof Error ? failure.message : String(failure)}; the samples of block ${hooks.block} not yet finished are recorded as failed, the other blocks go on (run them later with AWB_RESUME=latest)`
    hooks.log(`awb: ${reason}`)
    await hooks.onGiveUp({ block: hooks.block, reason })
    set(sessionId, GIVEN_UP_PAGE)
    // The cause chain keeps Vitest's closed connection: the Node side words the end of the run after it.
    internals.reportError(new BrowserRecoveryError('BROWSER_BLOCK_GIVEN_UP', `[assembly-world-bench] ${reason}`, { cause: failure }))
  }

  const wrap = (sessionId: string, rpc: OrchestratorRpc): OrchestratorRpc => {
    const createTesters = async (options: unknown): Promise<void> => {
      try {
        await rpc.createTesters(options)
      } catch (error) {
        if (closing || internals.isCancelling() || !isConnectionClosed(error)) throw error
        let next: OrchestratorRpc
        try {
          next = await recover(sessionId, error)
        } catch (unrecoverable) {
          await giveUp(sessionId, unrecoverable)
          return
        }
        // The new page runs the whole file again; its samples that this run recorded are reported, not run.
        await next.createTesters(options)
      }
    }
    return new Proxy(rpc, {
      get: (target, property) => (property === 'createTesters' ? createTesters : Reflect.get(target, property)),
    })
  }

  orchestrators.set = (sessionId: string, rpc: OrchestratorRpc) => set(sessionId, wrap(sessionId, rpc))
}

/** What Playwright reports within LOSS_DIAGNOSIS_MS of the closed connection (a killed browser is seen at once). */
async function diagnose(reported: Promise<PageLossKind> | undefined): Promise<PageLossKind> {
  if (reported === undefined) return 'connection-closed'
  let timer: ReturnType<typeof setTimeout> | undefined
  const quiet = new Promise<PageLossKind>((resolve) => {
    timer = setTimeout(() => resolve('connection-closed'), LOSS_DIAGNOSIS_MS)
  })
  try {
    return await Promise.race([reported, quiet])
  } finally {
    clearTimeout(timer)
  }
}

/** The sentence recorded for the sample in flight (and logged). */
export function describeLoss(block: string, kind: PageLossKind): string {
  switch (kind) {
    case 'browser-exited':
      return `the Chromium browser of block ${block} exited while this sample ran (crashed or killed); the block continues in a new browser`
    case 'page-crashed':
      return `the page of block ${block} crashed while this sample ran; the block continues in a new page`
    case 'connection-closed':
      return `the page of block ${block} lost its connection to Vitest while this sample ran; the block continues in a new page`
    case 'page-hung':
      return `the page of block ${block} stopped responding and was closed; the block continues in a new page`
    default: {
      const never: never = kind
      return never
    }
  }
}

/** Vitest's error for an orchestrator whose websocket closed (@vitest/browser setupBrowserRpc). */
function isConnectionClosed(error: unknown): boolean {
  return error instanceof Error && error.message.includes('Browser connection was closed while running tests')
}
