// A setup file of the hostile suite's child run: it runs in the block's tester page, before the block suite, and
// stands for page code that escaped its realm, or any page on the server. When the hostile agent (in its realm) says
// so, through the test's server, it runs the page probes: Vitest's commands and RPC, our commands, the server's URLs,
// Vitest's globals; then the commands that end the sample early. It also reports what reached this page from the
// realm: window messages, and anything on Vitest's BroadcastChannels.
import { commands } from 'vitest/browser'
import { runProbe, type Probe, type ProbeOutcome } from './probes.ts'

interface VitestGlobals {
  __vitest_worker__?: { rpc: Record<string, (...args: unknown[]) => Promise<unknown>> }
  __vitest_browser_runner__?: { config?: unknown; sessionId?: string; commands: { triggerCommand(name: string, args: unknown[]): Promise<unknown> } }
  process?: { env?: unknown }
}

const base = (import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_AWB_HOSTILE_URL
const globals = globalThis as unknown as VitestGlobals
const post = (path: string, value: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(value) })

/** What the realm managed to send this page, reported with the page's outcomes. */
const received: string[] = []
addEventListener('message', (event) => {
  if (event.origin === 'null') received.push(`window message from ${event.origin}: ${JSON.stringify(event.data)?.slice(0, 200)}`)
})
// Vitest's orchestrator and testers talk over these channels (a `cancel` on the global one cancels the run).
for (const name of ['vitest:global', `vitest:${globals.__vitest_browser_runner__?.sessionId ?? ''}`]) {
  new BroadcastChannel(name).addEventListener('message', (event: MessageEvent) => {
    if (JSON.stringify(event.data)?.includes('awb-hostile')) received.push(`broadcast on ${name}: ${JSON.stringify(event.data).slice(0, 200)}`)
  })
}

const reach = {
  command: async (name: string, args: unknown[]) => {
    const known = (commands as unknown as Record<string, ((...values: unknown[]) => Promise<unknown>) | undefined>)[name]
    return known !== undefined ? known(...args) : globals.__vitest_browser_runner__!.commands.triggerCommand(name, args)
  },
  rpc: (method: string, args: unknown[]) => globals.__vitest_worker__!.rpc[method]!(...args),
  // What configuration the page can see: Vite's env, Vitest's serialized config, any process shim.
  globals: () => ({ env: (import.meta as unknown as { env: unknown }).env, config: globals.__vitest_browser_runner__?.config, process: globals.process?.env ?? null }),
}

async function runAll(probes: readonly Probe[]): Promise<ProbeOutcome[]> {
  const outcomes: ProbeOutcome[] = []
  for (const probe of probes) outcomes.push(await runProbe(probe, reach))
  return outcomes
}

if (base !== undefined) {
  // Held by the test's server until the agent, in its realm, hands the page its turn (the sample is open then).
  void post('/page-turn', { origin: location.origin }).then(async (response) => {
    const probes = await response.json() as { before: Probe[]; after: Probe[] }
    await post('/report', await runAll(probes.before))
    // Last: our own commands that end the sample (finish early, then again): the harness's own finish must fail.
    const after = await runAll(probes.after)
    await post('/report-after', { outcomes: after, received })
  })
}
