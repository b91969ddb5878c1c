// A page agent that attacks the harness (test/integration/hostile-agent.test.ts). It runs in its realm, a sandboxed
// frame, and tries every way out the test sends it (the realm probes: the page's DOM and globals, Vitest, the Vite
// server by fetch, script and WebSocket, storage, forged messages to the page, to Vitest's channels and on its own
// port), plus the tools with values meant to break scoring. Then it hands the page its turn: the page accomplice
// (page-accomplice.ts) runs the probes that need the tester page, while this agent waits. It learns the probes from
// the test's server, whose URL Vite exposes as VITE_AWB_HOSTILE_URL. It imports nothing of Vitest: it cannot.
import { defineAgent } from '../../../src/agents/index.ts'
import { runProbe, type Probe, type ProbeOutcome } from './probes.ts'

/** Printed from the realm: the test finds it in the child run's output. */
export const CONSOLE_MARKER = 'awb-hostile: console output from the realm'

export default defineAgent({
  name: 'hostile',
  async run(context) {
    const base = (import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_AWB_HOSTILE_URL
    if (base === undefined) throw new Error('VITE_AWB_HOSTILE_URL is not set')
    console.log(CONSOLE_MARKER, { origin: self.origin })
    const post = (path: string, value: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(value) })
    // Where the tester page (and so the Vite server) is, as Chromium tells any frame.
    const probes = await (await post('/realm', { ancestorOrigins: [...location.ancestorOrigins] })).json() as Probe[]
    const reach = {
      tool: context.tools.call,
      globals: () => ({
        vitest: Object.keys(globalThis).filter(key => /^__vitest|^commands$|^__VITEST/.test(key)),
        env: (import.meta as unknown as { env: unknown }).env,
        process: typeof process === 'undefined' ? null : 'defined',
      }),
    }
    const outcomes: ProbeOutcome[] = []
    for (const probe of probes) outcomes.push(await runProbe(probe, reach))
    await post('/realm-report', outcomes)
    // The page's turn: the server answers once the page accomplice has run its probes and ended the sample early.
    await post('/page-turn-now', {})
    return { finalAnswer: JSON.stringify({ status: 'completed', summary: 'probed', checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }
  },
})

export type { Probe, ProbeOutcome }
