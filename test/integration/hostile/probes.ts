// The probes of the hostile suite (test/integration/hostile-agent.test.ts) as data, and running one from wherever the
// code runs: the tester page (page-accomplice.ts) or the agent's realm (hostile-agent.ts). Imports nothing of Vitest:
// the realm could not load it (and the harness refuses to bundle it); the page hands its Vitest handles in.

/** One probe, as the test describes it. */
export type Probe =
  | { id: string; kind: 'fetch'; url: string; method?: string; mode?: RequestMode }
  | { id: string; kind: 'import'; url: string }
  | { id: string; kind: 'command'; name: string; args: unknown[] }
  | { id: string; kind: 'rpc'; method: string; args: unknown[] }
  | { id: string; kind: 'tool'; name: string; input: unknown }
  | { id: string; kind: 'globals' }
  | { id: string; kind: 'websocket'; url: string; protocols?: string[] }
  | { id: string; kind: 'script'; src: string }
  | { id: string; kind: 'eval'; code: string }

/** What a probe got: an HTTP status and body, a value, or the error it threw. */
export interface ProbeOutcome {
  id: string
  status?: number
  body?: string
  value?: string
  error?: string
}

const MAX_BODY = 4 * 1024 * 1024

/** What the place that runs a probe can reach (the page has Vitest's handles; the realm has its tools). */
export interface ProbeReach {
  command?(name: string, args: unknown[]): Promise<unknown>
  rpc?(method: string, args: unknown[]): Promise<unknown>
  tool?(name: string, input: unknown): Promise<string>
  globals(): unknown
}

export async function runProbe(probe: Probe, reach: ProbeReach): Promise<ProbeOutcome> {
  try {
    switch (probe.kind) {
      case 'fetch': {
        const response = await fetch(probe.url, { method: probe.method ?? 'GET', ...(probe.mode === undefined ? {} : { mode: probe.mode }) })
        const text = await response.text()
        return { id: probe.id, status: response.status, body: text.slice(0, MAX_BODY) }
      }
      case 'import': {
        const module: unknown = await import(/* @vite-ignore */ probe.url)
        return { id: probe.id, value: JSON.stringify(module)?.slice(0, MAX_BODY) ?? 'undefined' }
      }
      case 'command':
        return { id: probe.id, value: JSON.stringify(await unreachable(reach.command, 'commands')(probe.name, probe.args) ?? null).slice(0, MAX_BODY) }
      case 'rpc':
        return { id: probe.id, value: JSON.stringify(await unreachable(reach.rpc, 'the RPC')(probe.method, probe.args) ?? null).slice(0, MAX_BODY) }
      case 'tool':
        return { id: probe.id, value: await unreachable(reach.tool, 'the tools')(probe.name, probe.input) }
      case 'globals':
        return { id: probe.id, value: JSON.stringify(reach.globals()) }
      case 'websocket':
        return { id: probe.id, value: await openSocket(probe.url, probe.protocols) }
      case 'script':
        return { id: probe.id, value: await loadScript(probe.src) }
      case 'eval':
        return { id: probe.id, value: JSON.stringify(await (new Function(`return (async () => { ${probe.code} })()`) as () => Promise<unknown>)()) }
    }
  } catch (error) {
    return { id: probe.id, error: describe(error) }
  }
}

function unreachable<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: not reachable from here`)
  return value
}

/** Opens a WebSocket and reports how it went: opened or not, what it received, how it closed. */
function openSocket(url: string, protocols: string[] = []): Promise<string> {
  return new Promise((resolve) => {
    const events: string[] = []
    let socket: WebSocket
    try {
      socket = new WebSocket(url, protocols)
    } catch (error) {
      resolve(`refused: ${describe(error)}`)
      return
    }
    const done = () => resolve(events.join('; '))
    const timer = setTimeout(() => { events.push('still open after 3 s'); socket.close(); done() }, 3000)
    socket.onopen = () => events.push('open')
    socket.onmessage = event => events.push(`message ${String(event.data).slice(0, 200)}`)
    socket.onerror = () => events.push('error')
    socket.onclose = (event) => {
      clearTimeout(timer)
      events.push(`close ${event.code}`)
      done()
    }
  })
}

/** Loads a classic script (which no CORS check guards) and reports whether it ran. */
function loadScript(src: string): Promise<string> {
  return new Promise((resolve) => {
    const script = document.createElement('script')
    script.src = src
    script.onload = () => resolve('loaded')
    script.onerror = () => resolve('refused')
    document.head.append(script)
  })
}

/** Errors that crossed Vitest's RPC arrive as plain objects with a message. */
export function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  if (error !== null && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message)
  return JSON.stringify(error) ?? String(error)
}
