// A page agent that attacks the harness (test/integration/hostile-agent.test.ts): it runs every probe the test
// sends it (fetches, imports, Vitest's commands and RPC, our commands, tools) from inside a real sample's page and
// reports what each probe got back. It learns the probes from the test's server, whose URL Vite exposes to the
// page as VITE_AWB_HOSTILE_URL.
import { commands } from 'vitest/browser'
import { defineAgent } from '../../../src/agents/index.ts'

/** One probe, as the test describes it. */
export type Probe =
  | { id: string; kind: 'fetch'; url: string; method?: string }
  | { id: string; kind: 'import'; url: string }
  | { id: string; kind: 'command'; name: string; args: unknown[] }
  | { id: string; kind: 'rpc'; method: string; args: unknown[] }
  | { id: string; kind: 'tool'; name: string; input: unknown }
  | { id: string; kind: 'globals' }

/** What a probe got: an HTTP status and body, a value, or the error it threw. */
export interface ProbeOutcome {
  id: string
  status?: number
  body?: string
  value?: string
  error?: string
}

const MAX_BODY = 4 * 1024 * 1024

interface VitestGlobals {
  __vitest_worker__?: { rpc: Record<string, (...args: unknown[]) => Promise<unknown>> }
  __vitest_browser_runner__?: { commands: { triggerCommand(name: string, args: unknown[]): Promise<unknown> } }
}

export default defineAgent({
  name: 'hostile',
  async run(context) {
    const base = (import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_AWB_HOSTILE_URL
    if (base === undefined) throw new Error('VITE_AWB_HOSTILE_URL is not set')
    const post = (path: string, value: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(value) })
    // The test probes this server from its own process while the sample is open, then answers with the probes.
    const probes = await (await post('/origin', { origin: location.origin })).json() as { before: Probe[]; after: Probe[] }
    const outcomes: ProbeOutcome[] = []
    for (const probe of probes.before) outcomes.push(await run(probe, context.tools.call))
    await post('/report', outcomes)
    // Last: our own commands that end the sample (finish early, then again): the harness's own finish must fail.
    const late: ProbeOutcome[] = []
    for (const probe of probes.after) late.push(await run(probe, context.tools.call))
    await post('/report-after', late)
    return { finalAnswer: JSON.stringify({ status: 'completed', summary: 'probed', checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }
  },
})

async function run(probe: Probe, callTool: (name: string, input: unknown) => Promise<string>): Promise<ProbeOutcome> {
  const globals = globalThis as unknown as VitestGlobals
  try {
    switch (probe.kind) {
      case 'fetch': {
        const response = await fetch(probe.url, { method: probe.method ?? 'GET' })
        const text = await response.text()
        return { id: probe.id, status: response.status, body: text.slice(0, MAX_BODY) }
      }
      case 'import': {
        const module: unknown = await import(/* @vite-ignore */ probe.url)
        return { id: probe.id, value: JSON.stringify(module)?.slice(0, MAX_BODY) ?? 'undefined' }
      }
      case 'command': {
        const known = (commands as unknown as Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>)[probe.name]
        const value = known !== undefined ? await known(...probe.args) : await globals.__vitest_browser_runner__!.commands.triggerCommand(probe.name, probe.args)
        return { id: probe.id, value: JSON.stringify(value ?? null).slice(0, MAX_BODY) }
      }
      case 'rpc': {
        const value = await globals.__vitest_worker__!.rpc[probe.method]!(...probe.args)
        return { id: probe.id, value: JSON.stringify(value ?? null).slice(0, MAX_BODY) }
      }
      case 'tool':
        return { id: probe.id, value: await callTool(probe.name, probe.input) }
      case 'globals': {
        // What configuration the page can see: Vite's env, Vitest's serialized config, any process shim.
        const env = (import.meta as unknown as { env: unknown }).env
        const runner = globalThis as unknown as { __vitest_browser_runner__?: { config?: unknown }; process?: { env?: unknown } }
        return { id: probe.id, value: JSON.stringify({ env, config: runner.__vitest_browser_runner__?.config, process: runner.process?.env ?? null }) }
      }
    }
  } catch (error) {
    return { id: probe.id, error: describe(error) }
  }
}

/** Errors that crossed Vitest's RPC arrive as plain objects with a message. */
function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  if (error !== null && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message)
  return JSON.stringify(error) ?? String(error)
}
