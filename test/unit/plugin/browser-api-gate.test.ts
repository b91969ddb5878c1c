// The gate in front of Vitest's browser API and Vite's HMR socket, on upgrade requests as Node's HTTP server hands
// them over: a page of another origin, a sandboxed frame (Origin null), a local process (no Origin), a session that
// is not live, a page naming another project — each refused; the run's own page goes through.
import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { Vitest } from 'vitest/node'
import { CLOSED_SESSION, refusalOf, SessionProjects } from '../../../plugin/vitest-compat/index.ts'

const HOST = '127.0.0.1:63315'

function upgrade(path: string, headers: Record<string, string>): IncomingMessage {
  return { url: path, headers: { host: HOST, ...headers } } as unknown as IncomingMessage
}

/** Vitest's sessions as the browser API reads them: one live session of project `chair`, one closed. */
const sessions = {
  sessionIds: new Set(['live', 'gone', 'reconnecting']),
  closedSessionIds: new Set(['gone']),
  entries: new Map([['live', { project: { name: 'chair' } }], ['reconnecting', { project: { name: 'chair' } }]]),
  getSession(id: string) { return this.entries.get(id) },
}
const vitest = { _browserSessions: sessions } as unknown as Vitest

const api = (query: string) => `/__vitest_browser_api__?type=tester&rpcId=r&${query}&token=t`

describe('refusalOf', () => {
  it('lets the run\'s own page through, for its own session and project', () => {
    expect(refusalOf(upgrade(api('sessionId=live&projectName=chair'), { origin: `http://${HOST}` }), vitest)).toBeUndefined()
    expect(refusalOf(upgrade('/?token=t', { origin: `http://${HOST}`, 'sec-websocket-protocol': 'vite-hmr' }), vitest)).toBeUndefined()
  })

  it('leaves other upgrades alone', () => {
    expect(refusalOf(upgrade('/elsewhere', {}), vitest)).toBeUndefined()
  })

  it('refuses a sandboxed frame (Origin null) and a local process that sends no Origin', () => {
    expect(refusalOf(upgrade(api('sessionId=live&projectName=chair'), { origin: 'null' }), vitest)).toMatch(/without a page origin \(null/)
    expect(refusalOf(upgrade(api('sessionId=live&projectName=chair'), {}), vitest)).toMatch(/without a page origin \(none sent/)
    expect(refusalOf(upgrade('/?token=t', { origin: 'null', 'sec-websocket-protocol': 'vite-hmr' }), vitest)).toMatch(/an HMR connection without a page origin/)
  })

  it('refuses a foreign or malformed origin, also for HMR', () => {
    expect(refusalOf(upgrade(api('sessionId=live&projectName=chair'), { origin: 'http://127.0.0.1:9999' }), vitest)).toMatch(/foreign origin/)
    expect(refusalOf(upgrade('/', { origin: 'http://evil.example', 'sec-websocket-protocol': 'vite-hmr' }), vitest)).toMatch(/foreign origin/)
    expect(refusalOf(upgrade(api('sessionId=live&projectName=chair'), { origin: '::' }), vitest)).toMatch(/malformed origin/)
  })

  it('lets only a page of the server\'s own origin (the UI) open Vitest\'s API socket; a tester page of another server, a sandboxed frame and a local process are refused', () => {
    const ui = '/__vitest_api__?token=t'
    expect(refusalOf(upgrade(ui, { origin: `http://${HOST}` }), vitest)).toBeUndefined()
    // A tester page lives on its block's browser server: another port, another origin.
    expect(refusalOf(upgrade(ui, { origin: 'http://127.0.0.1:63316' }), vitest)).toMatch(/a connection to Vitest's API \(the UI's socket\) from the foreign origin http:\/\/127\.0\.0\.1:63316 was refused/)
    expect(refusalOf(upgrade(ui, { origin: 'null' }), vitest)).toMatch(/Vitest's API .*without a page origin \(null/)
    expect(refusalOf(upgrade(ui, {}), vitest)).toMatch(/Vitest's API .*without a page origin \(none sent/)
    // Path forms that the server maps to the same socket are judged the same.
    expect(refusalOf(upgrade('/__vitest_api__', { origin: 'null' }), vitest)).toMatch(/Vitest's API/)
  })

  it('refuses a session that is not live, and a page naming another project', () => {
    const origin = `http://${HOST}`
    expect(refusalOf(upgrade(api('sessionId=forged&projectName=chair'), { origin }), vitest)).toMatch(/session that is not live \("forged"\)/)
    expect(refusalOf(upgrade(api('projectName=chair'), { origin }), vitest)).toMatch(/session that is not live \(null\)/)
    expect(refusalOf(upgrade(api('sessionId=live&projectName=table'), { origin }), vitest)).toMatch(/from a page of project "chair" naming another project/)
    // Before Vitest is known, no session can be checked: refused.
    expect(refusalOf(upgrade(api('sessionId=live&projectName=chair'), { origin }), undefined)).toMatch(/not live/)
  })

  it('refuses an ended session\'s page quietly, as Vitest does', () => {
    expect(refusalOf(upgrade(api('sessionId=gone&projectName=chair'), { origin: `http://${HOST}` }), vitest)).toBe(CLOSED_SESSION)
  })

  it('knows the project of a session whose entry Vitest dropped when its orchestrator reconnects (Vitest 4.1)', () => {
    const projects = new SessionProjects()
    const origin = `http://${HOST}`
    expect(refusalOf(upgrade(api('sessionId=reconnecting&projectName=chair'), { origin }), vitest, projects)).toBeUndefined()
    sessions.entries.delete('reconnecting')
    expect(refusalOf(upgrade(api('sessionId=reconnecting&projectName=chair'), { origin }), vitest, projects)).toBeUndefined()
    expect(refusalOf(upgrade(api('sessionId=reconnecting&projectName=table'), { origin }), vitest, projects)).toMatch(/naming another project/)
    // Never seen with its entry: its project cannot be known, so it is refused.
    expect(refusalOf(upgrade(api('sessionId=reconnecting&projectName=chair'), { origin }), vitest, new SessionProjects())).toMatch(/not live/)
  })
})
