// The page recovery of block projects against fakes of the Vitest internals it reaches (the same in 4.1 and 5) (orchestrator RPCs,
// `_openBrowserPage`) and of the Playwright provider; the real thing runs in test/integration/long-runs.test.ts, on each supported Vitest.
import { EventEmitter } from 'node:events'
import type { PlaywrightProviderOptions } from '@vitest/browser-playwright'
import type { BrowserProviderOption, TestProject } from 'vitest/node'
import { describe, expect, it } from 'vitest'
import { MAX_PAGE_RECOVERIES, recoveringPlaywright, type PageLoss } from '../../../plugin/vitest-compat/browser-recovery.ts'
import { browserPoolInternals } from '../../../plugin/vitest-compat/internals.ts'

const CLOSED = '[vitest] Browser connection was closed while running tests. Was the page closed unexpectedly?'
const BLOCK = 'ikea-manualbook'

class FakeBrowser extends EventEmitter {
  connected = true
  isConnected(): boolean {
    return this.connected
  }

  die(): void {
    this.connected = false
    this.emit('disconnected')
  }
}

/** One page's orchestrator: `createTesters` waits until the test settles it. */
class FakeRpc {
  readonly calls: unknown[] = []
  private settle: { resolve: () => void; reject: (error: Error) => void } | undefined
  createTesters(options: unknown): Promise<void> {
    this.calls.push(options)
    return new Promise((resolve, reject) => {
      this.settle = { resolve, reject }
    })
  }

  finish(): void {
    this.settle?.resolve()
  }

  close(message = CLOSED): void {
    this.settle?.reject(new Error(message))
  }
}

function fakeRun(options: { withoutBrowserState?: boolean } = {}) {
  const launched: FakeBrowser[] = []
  const closedContexts: string[] = []
  const provider = {
    browser: null as FakeBrowser | null,
    contexts: new Map<string, { close: () => Promise<void> }>(),
    pages: new Map<string, EventEmitter & { close?: (options: unknown) => Promise<void> }>(),
    async openPage(sessionId: string) {
      if (provider.browser === null) launched.push(provider.browser = new FakeBrowser())
      const page = Object.assign(new EventEmitter(), { closedWith: undefined as unknown, close: async (closeOptions: unknown) => { page.closedWith = closeOptions } })
      provider.pages.set(sessionId, page)
      if (!provider.contexts.has(sessionId)) provider.contexts.set(sessionId, { close: async () => { closedContexts.push(sessionId) } })
    },
    async close() {},
  }
  const rpcs: FakeRpc[] = []
  const orchestrators = new Map<string, FakeRpc>()
  const runErrors: Error[] = []
  const project = {
    name: `${BLOCK} (chromium)`,
    vitest: { version: '5.1.2', isCancelling: false, state: { catchError: (error: Error) => { runErrors.push(error) } } },
    browser: options.withoutBrowserState === true ? undefined : { state: { orchestrators } },
    // As Vitest: the provider opens the page, whose orchestrator then connects.
    async _openBrowserPage(sessionId: string, _pool: unknown) {
      await provider.openPage(sessionId)
      const rpc = new FakeRpc()
      rpcs.push(rpc)
      orchestrators.set(sessionId, rpc)
    },
  }
  const losses: PageLoss[] = []
  const givenUp: { block: string; reason: string }[] = []
  const lines: string[] = []
  let closeHungPage: ((reason: string) => Promise<void>) | undefined
  const base = { name: 'playwright', options: {}, providerFactory: () => provider, serverFactory: () => undefined } as unknown as BrowserProviderOption<PlaywrightProviderOptions>
  const option = recoveringPlaywright(base, { block: BLOCK, onLost: async (loss) => { losses.push(loss) }, onGiveUp: async (end) => { givenUp.push(end) }, log: line => lines.push(line), exposeCloseHungPage: (close) => { closeHungPage = close } }, { recoveryInternals: browserPoolInternals })
  expect(option.providerFactory(project as unknown as TestProject)).toBe(provider)
  /** What Vitest's pool does with one test file: open the page, then run the file through its orchestrator. */
  const runFile = async (options: unknown) => {
    await project._openBrowserPage('s1', { reject: () => {} })
    return orchestrators.get('s1')!.createTesters(options)
  }
  return { provider, project, orchestrators, rpcs, launched, closedContexts, losses, givenUp, runErrors, lines, runFile, closeHungPage: (reason: string) => closeHungPage!(reason) }
}

/** Lets pending promise callbacks run (the recovery reacts to a rejection over a few turns). */
async function until(condition: () => boolean): Promise<void> {
  await expect.poll(condition).toBe(true)
}

describe('recoveringPlaywright', () => {
  it('a browser that exits: the sample in flight is reported lost, a new browser opens and the file runs again there', async () => {
    const run = fakeRun()
    const file = run.runFile({ files: ['suite.ts'] })
    await until(() => run.rpcs.length === 1)
    run.launched[0]!.die()
    run.rpcs[0]!.close()
    await until(() => run.rpcs.length === 2)
    expect(run.losses).toEqual([{ block: BLOCK, kind: 'browser-exited', reason: expect.stringContaining(`the Chromium browser of block ${BLOCK} exited while this sample ran`) }])
    expect(run.lines).toEqual([`awb: ${run.losses[0]!.reason}`])
    expect(run.launched).toHaveLength(2)
    expect(run.rpcs[1]!.calls).toEqual([{ files: ['suite.ts'] }])
    run.rpcs[1]!.finish()
    await expect(file).resolves.toBeUndefined()
  })

  it('a crashed page: the same browser opens a new page in a fresh context', async () => {
    const run = fakeRun()
    const file = run.runFile({ files: ['suite.ts'] })
    await until(() => run.rpcs.length === 1)
    run.provider.pages.get('s1')!.emit('crash')
    run.rpcs[0]!.close()
    await until(() => run.rpcs.length === 2)
    expect(run.losses.map(loss => loss.kind)).toEqual(['page-crashed'])
    expect(run.losses[0]!.reason).toContain(`the page of block ${BLOCK} crashed while this sample ran`)
    expect(run.launched).toHaveLength(1)
    expect(run.closedContexts).toEqual(['s1'])
    run.rpcs[1]!.finish()
    await expect(file).resolves.toBeUndefined()
  })

  it('a hung page: the recovery closes it, and its loss is reported as page-hung with the reason it was given', async () => {
    const run = fakeRun()
    const file = run.runFile({ files: ['suite.ts'] })
    await until(() => run.rpcs.length === 1)
    const HUNG = `the page of block ${BLOCK} stopped responding: Misc/grefodun is 60 s past its time limit`
    const page = run.provider.pages.get('s1') as unknown as { closedWith: unknown }
    await run.closeHungPage(HUNG)
    expect(page.closedWith).toEqual({ runBeforeUnload: false })
    // The closed page's connection closes; no crash or exit is reported, yet the loss is not a mere dropped connection.
    run.rpcs[0]!.close()
    await until(() => run.rpcs.length === 2)
    expect(run.losses).toEqual([{ block: BLOCK, kind: 'page-hung', reason: HUNG }])
    expect(run.lines).toEqual([`awb: ${HUNG}`])
    expect(run.launched).toHaveLength(1)
    run.rpcs[1]!.finish()
    await expect(file).resolves.toBeUndefined()
  })

  it('other failures, and a closed connection while Vitest cancels, are left to Vitest', async () => {
    const run = fakeRun()
    const failing = run.runFile({})
    await until(() => run.rpcs.length === 1)
    run.rpcs[0]!.close('the orchestrator failed')
    await expect(failing).rejects.toThrow('the orchestrator failed')

    run.project.vitest.isCancelling = true
    const cancelled = run.runFile({})
    await until(() => run.rpcs.length === 2)
    run.rpcs[1]!.close()
    await expect(cancelled).rejects.toThrow(CLOSED)
    expect(run.losses).toEqual([])
  })

  it(`gives up after ${MAX_PAGE_RECOVERIES} recoveries: the block ends (its file settles, so the pool can finish) and the run fails on the error`, async () => {
    const run = fakeRun()
    const file = run.runFile({})
    for (let lost = 0; lost <= MAX_PAGE_RECOVERIES; lost++) {
      await until(() => run.rpcs.length === lost + 1)
      run.launched.at(-1)!.die()
      run.rpcs.at(-1)!.close()
    }
    await expect(file).resolves.toBeUndefined()
    expect(run.losses).toHaveLength(MAX_PAGE_RECOVERIES)
    const reason = `the page of block ${BLOCK} was lost ${MAX_PAGE_RECOVERIES + 1} times (the last time: browser-exited), more than the ${MAX_PAGE_RECOVERIES} recoveries a block gets; the samples of block ${BLOCK} not yet finished are recorded as failed, the other blocks go on (run them later with AWB_RESUME=latest)`
    expect(run.givenUp).toEqual([{ block: BLOCK, reason }])
    expect(run.runErrors.map(error => error.message)).toEqual([`[assembly-world-bench] ${reason}`])
    expect(run.runErrors[0]).toMatchObject({ name: 'BrowserRecoveryError', code: 'BROWSER_BLOCK_GIVEN_UP' })
    expect(run.runErrors[0]!.cause).toMatchObject({ code: 'BROWSER_PAGE_LOST_TOO_OFTEN' })
    // Vitest's closed connection stays in the cause chain (the Node side words the end of the run after it).
    expect(((run.runErrors[0]!.cause as Error).cause as Error).message).toBe(CLOSED)
    // A stand-in with nothing to run keeps the pool's count of pages: it ends, and closes it at the end.
    const standIn = run.orchestrators.get('s1') as unknown as { createTesters(): Promise<void>; $close(): void }
    await expect(standIn.createTesters()).resolves.toBeUndefined()
    expect(standIn.$close()).toBeUndefined()
  })

  it('on a Vitest without the internals it leaves the provider alone and says what is missing and that a dead browser ends the run', async () => {
    const run = fakeRun({ withoutBrowserState: true })
    expect(run.lines).toEqual([expect.stringMatching(/^awb: browser recovery is off for block ikea-manualbook: Vitest 5\.1\.2 has no project\.browser\.state\.orchestrators\. A browser that dies ends the whole run/)])
    const file = run.runFile({})
    await until(() => run.rpcs.length === 1)
    run.launched[0]!.die()
    run.rpcs[0]!.close()
    await expect(file).rejects.toThrow(CLOSED)
  })
})
