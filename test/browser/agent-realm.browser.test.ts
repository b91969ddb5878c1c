// Page agents in their realm (a sandboxed, opaque-origin frame), run by the real harness over a fixture world: what
// they get (tools, records, console), what they cannot reach, and how they end (time limit, throws, bad modules).
import { describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { runSample, type RunSampleDeps } from '../../src/harness/index.ts'
import type { StartSampleResponse } from '../../src/harness/index.ts'
import { fakeHost, fixtureEpisode, loadMujoco, renderer, serving } from './support/fake-sample-host.ts'

const AGENTS = 'test/browser/support/realm-agents'

async function moduleAgent(file: string): Promise<StartSampleResponse['agent']> {
  const source = `./${AGENTS}/${file}`
  return { kind: 'module', source, realm: await commands.awbTestRealmCode({ kind: 'module', path: `${AGENTS}/${file}` }) }
}

/** A console call of the realm, and when the page received it. */
interface Logged { level: string; args: unknown[]; at: number }

async function runModule(file: string, start: Partial<StartSampleResponse> = {}, deps: Partial<RunSampleDeps> = {}) {
  const logged: Logged[] = []
  const sink = (level: string) => (...args: unknown[]) => { logged.push({ level, args, at: performance.now() }) }
  const fake = fakeHost({ agent: await moduleAgent(file), ...start })
  const report = await runSample(fake.host, {
    mujoco: await loadMujoco(),
    createRenderer: () => renderer,
    fetch: serving(await fixtureEpisode()),
    realm: { console: { log: sink('log'), info: sink('info'), warn: sink('warn'), error: sink('error'), debug: sink('debug') } },
    ...deps,
  })
  return { ...fake, report, logged }
}

describe('a page agent module in its realm', () => {
  it('gets its prompt, pages and tools; every tool call is recorded by the harness; its console reaches the page', async () => {
    const pageBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])
    const { finished, records, logged, report } = await runModule('recording-agent.ts', {
      pages: [{ page: 1, url: '/page-1.png', mimeType: 'image/png' }],
    }, { fetch: async url => new Response(new Blob([String(url).includes('page-1') ? pageBytes.slice() : (await fixtureEpisode()).slice()])) })
    expect(report.failure).toBeUndefined()
    expect(records.map(entry => entry.type)).toEqual(['message', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'message'])
    expect(records[1]).toMatchObject({ type: 'tool_call', id: 'call-1', name: 'list_objects' })
    expect(records[4]).toMatchObject({ type: 'tool_result', id: 'call-2' })
    expect(finished[0]).toMatchObject({
      execution: { status: 'completed', usage: { input_tokens: 3 }, cost_usd: 0.5, model: 'module-model' },
      archive: { status: 'saved', calls: 2 },
      toolCalls: 2,
    })
    expect(JSON.parse(finished[0]!.execution.final_answer!)).toMatchObject({ status: 'completed', tools: 12 })
    expect(logged.map(({ level, args }) => ({ level, args }))).toEqual([
      { level: 'info', args: ['realm agent loaded', { at: 'top level' }] },
      { level: 'log', args: ['realm agent running', 'Assemble.', 1, true] },
      { level: 'warn', args: ['realm agent done'] },
    ])
  })

  it('reaches nothing of the page, Vitest or the server: its origin is opaque', async () => {
    const { finished } = await runModule('isolation-probe-agent.ts')
    const findings = JSON.parse(finished[0]!.execution.final_answer!) as Record<string, string>
    expect(findings.origin).toBe('null')
    expect(findings.vitestGlobals).toBe('')
    expect(findings.parentDocument).toMatch(/^error: SecurityError/)
    expect(findings.parentGlobals).toMatch(/^error: SecurityError/)
    expect(findings.parentLocation).toMatch(/^error: SecurityError/)
    expect(findings.topVitest).toMatch(/^error: SecurityError/)
    expect(findings.frameElement).toBe('value: null')
    expect(findings.importVitest).toMatch(/^error: TypeError/)
    expect(findings.cookie).toMatch(/^error: SecurityError/)
    expect(findings.localStorage).toMatch(/^error: SecurityError/)
    // The Vite server answers no request of the realm's origin readably, and serves it no script.
    expect(findings.sameOriginFetch).toMatch(/^error: TypeError: Failed to fetch/)
    expect(findings.scriptFromServer).toBe('error: Error: refused')
    expect(findings.referrer).toBe('')
    // Nor through a worker: the realm's CSP covers importScripts in a blob worker, and a server script cannot be one.
    expect(findings.workerImportScripts).not.toMatch(/loaded/)
    expect(findings.workerFromServer).toMatch(/^error: /)
  })

  // Bounded, so that it fails where the next test would freeze this page for good: a Chromium without site isolation
  // (the headless shell without CHROMIUM_ARGS' --site-per-process) runs the realm on the page's own thread.
  let realmHasOwnThread = false
  it('runs on a thread of its own: the page receives its messages while it is busy', async () => {
    const { report, logged } = await runModule('busy-agent.ts')
    expect(report.failure).toBeUndefined()
    const at = (text: string) => logged.find(entry => entry.args[0] === text)?.at ?? Number.NaN
    // The realm is busy for 1.5 s between its two messages: a page sharing its thread receives both only afterwards.
    expect(at('busy: end') - at('busy: start'), 'the agent realm shares the page\'s renderer thread (site isolation off?)').toBeGreaterThan(1000)
    realmHasOwnThread = true
  })

  it('is ended at its time limit when it spins, without blocking the page, and its frame is removed', async () => {
    if (!realmHasOwnThread) throw new Error('not run: the realm shares the page\'s thread (the test above), so a spinning agent would freeze this page for good')
    const started = performance.now()
    let ticks = 0
    const ticker = setInterval(() => { ticks++ }, 50)
    try {
      const { finished, report } = await runModule('spinning-agent.ts', { timeoutMs: 1000 })
      expect(report.failure).toMatch(/the agent timed out: time limit of 1 s reached/)
      expect(finished[0]).toMatchObject({ execution: { status: 'timeout' }, archive: { status: 'saved' }, toolCalls: 1 })
      // The harness's own timer fired on time: the realm spins in its own renderer process, not in this page.
      expect(report.timings.agentMs).toBeLessThan(3000)
      expect(ticks).toBeGreaterThan(5)
    } finally {
      clearInterval(ticker)
    }
    expect(performance.now() - started).toBeLessThan(20_000)
    expect(document.querySelectorAll('iframe[data-awb-realm="running"]')).toHaveLength(0)
  })

  it('reports what it threw, by its own name', async () => {
    const { finished, report } = await runModule('throwing-agent.ts')
    expect(report.failure).toBe('the agent failed: TypeError: the agent tripped')
    expect(finished[0]).toMatchObject({ execution: { status: 'failed', error: 'TypeError: the agent tripped' }, archive: { status: 'saved' } })
  })

  it('fails clearly when its module throws while loading, or has no defineAgent default export', async () => {
    const broken = await runModule('load-failing-agent.ts')
    expect(broken.report.failure).toMatch(/the agent failed: AgentRealmError: the agent module \.\/test\/browser\/support\/realm-agents\/load-failing-agent\.ts could not be loaded: broken at load/)
    const plain = await runModule('no-default-agent.ts')
    expect(plain.report.failure).toMatch(/the agent failed: Error: the agent module .*no-default-agent\.ts must have a default export made with defineAgent/)
    expect(plain.finished[0]).toMatchObject({ archive: { status: 'saved' } })
  })

  it('gets every forged message on its port refused: another sample\'s record, model requests, unknown requests', async () => {
    const { finished, records } = await runModule('forging-agent.ts')
    const replies = JSON.parse(finished[0]!.execution.final_answer!) as Record<string, { ok: boolean; error?: string }>
    expect(replies['9001']).toMatchObject({ ok: false, error: expect.stringMatching(/not a message of the agent protocol: request: Unrecognized key: "block"|Unrecognized keys/) })
    expect(replies['9002']).toMatchObject({ ok: false, error: expect.stringMatching(/makes no model requests/) })
    expect(replies['9003']).toMatchObject({ ok: false, error: expect.stringMatching(/not a message of the agent protocol/) })
    expect(replies['9004']).toMatchObject({ ok: false, error: expect.stringMatching(/not a message of the agent protocol/) })
    expect(records.some(entry => JSON.stringify(entry).includes('forged'))).toBe(false)
  })
})
