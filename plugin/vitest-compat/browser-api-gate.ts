// Who may speak to Vitest's browser API: only the run's own pages, each as its own project. Vitest accepts any
// websocket that carries the API token (which every page and every local process that fetches a tester page can
// read), any project name, and a cancel from any page. Page code is untrusted (agents run there): a second socket
// naming another project crashed the run, and a page's cancel skipped every block's samples. Both majors (4.1, 5)
// share the shapes used here: `vitest._browserSessions.getSession(id).project` and `vitest.cancelCurrentRun`.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ViteDevServer } from 'vite'
import type { Vitest } from 'vitest/node'

/** The path of Vitest's browser API websocket (testers and orchestrators). */
export const BROWSER_API_PATH = '/__vitest_browser_api__'
/**
 * The path of Vitest's own API websocket, the one `vitest --ui` speaks (on the root server). It takes the same token
 * every tester page carries, and answers every test's results (the scores of earlier samples and attempts: an oracle to
 * an agent) and reruns: only the UI, a page of that server's own origin, may open it.
 */
export const VITEST_API_PATH = '/__vitest_api__'
/** Vite's HMR websocket protocol. */
const HMR_PROTOCOL = 'vite-hmr'
/** Where a refused upgrade is pointed before it is destroyed, so that no later listener acts on it. */
const REFUSED_PATH = '/__awb_refused_upgrade__'

/** Where refusals go, process-wide for the same reason as the Vitest slot: the run's reporter listens (`onRefusal`). */
const REFUSAL_SLOT = Symbol.for('assembly-world-bench.refusals')

/** Has every refusal of this process's gates reach `listener` (the run's reporter, which fails the run). */
export function onRefusal(listener: (message: string) => void): void {
  Reflect.set(globalThis, REFUSAL_SLOT, listener)
}

function refused(message: string): void {
  const listener = Reflect.get(globalThis, REFUSAL_SLOT) as ((message: string) => void) | undefined
  if (listener !== undefined) listener(message)
  else console.error(`awb integrity: ${message}`)
}

/**
 * The run's Vitest, kept process-wide: Vitest 4.1 loads the config again for each browser server, so the plugin
 * instance whose `configureServer` installs a gate may never see `configureVitest`.
 */
const VITEST_SLOT = Symbol.for('assembly-world-bench.vitest')

/** Remembers the run's Vitest for the gates of every Vite server in this process (from `configureVitest`). */
export function rememberVitest(vitest: Vitest): void {
  Reflect.set(globalThis, VITEST_SLOT, vitest)
}

function rememberedVitest(): Vitest | undefined {
  return Reflect.get(globalThis, VITEST_SLOT) as Vitest | undefined
}

/**
 * Puts a gate in front of every websocket upgrade of `server`: the browser API, Vitest's API (the UI's) and HMR only
 * from a page of this server's own origin (never Origin `null`, a sandboxed frame, nor a process that sends none; a
 * tester page is of its block's browser server, never of the root server the UI is on), and the browser API only for a
 * live session of the project it names. A refused upgrade is destroyed before Vitest or Vite see it.
 */
export function guardBrowserApi(server: ViteDevServer): void {
  const http = server.httpServer
  if (http === null) return
  const projects = new SessionProjects()
  http.prependListener('upgrade', (request: IncomingMessage, socket: Duplex) => {
    const refusal = refusalOf(request, rememberedVitest(), projects)
    if (refusal === undefined) return
      if (refusal !== CLOSED_SESSION) refused(refusal)
    request.url = REFUSED_PATH
    socket.destroy()
  })
}

/** A page of a session that has ended reconnecting while it closes: refused quietly, as Vitest does itself. */
export const CLOSED_SESSION = 'closed session'

/** Why an upgrade is refused (CLOSED_SESSION for an ended session's page), or undefined when it may go on. */
export function refusalOf(request: IncomingMessage, vitest: Vitest | undefined, projects = new SessionProjects()): string | undefined {
  const url = new URL(request.url ?? '/', 'http://localhost')
  const isApi = url.pathname === BROWSER_API_PATH
  const isVitestApi = url.pathname === VITEST_API_PATH
  const isHmr = String(request.headers['sec-websocket-protocol'] ?? '').split(',').map(part => part.trim()).includes(HMR_PROTOCOL)
  if (!isApi && !isVitestApi && !isHmr) return undefined
  const what = isApi ? `a browser API connection (${url.searchParams.get('type') ?? 'no type'}, project ${JSON.stringify(url.searchParams.get('projectName'))})` : isVitestApi ? "a connection to Vitest's API (the UI's socket)" : 'an HMR connection'
  const origin = request.headers.origin
  if (origin === undefined || origin === 'null') return `${what} without a page origin (${origin === undefined ? 'none sent: not a browser page' : 'null: a sandboxed frame or a file'}) was refused`
  let originHost: string
  try {
    originHost = new URL(origin).host
  } catch {
    return `${what} from the malformed origin ${JSON.stringify(origin)} was refused`
  }
  if (originHost !== request.headers.host) return `${what} from the foreign origin ${origin} was refused`
  if (!isApi) return undefined
  const sessionId = url.searchParams.get('sessionId')
  const projectName = url.searchParams.get('projectName')
  const session = sessionId === null || vitest === undefined ? undefined : projects.of(vitest, sessionId)
  if (session === CLOSED_SESSION) return CLOSED_SESSION
  if (session === undefined) return `${what} for a session that is not live (${JSON.stringify(sessionId)}) was refused`
  if (session !== projectName) return `${what} from a page of project ${JSON.stringify(session)} naming another project was refused`
  return undefined
}

/**
 * The project of each browser session, as Vitest's session registry (`_browserSessions`) holds it. Vitest forgets a
 * session's entry when its orchestrator disconnects, yet keeps its id valid for reconnects (4.1 has no list of closed
 * ids), so the project seen while the entry existed is remembered: a session's first connection always comes while it
 * does (Vitest creates the session before it opens its page).
 */
export class SessionProjects {
  private readonly seen = new Map<string, string>()

  /** The project of a live session, CLOSED_SESSION for one that ended, or undefined for an id Vitest does not know. */
  of(vitest: Vitest, sessionId: string): string | undefined {
    const sessions: unknown = Reflect.get(vitest, '_browserSessions')
    if (sessions === null || typeof sessions !== 'object') return undefined
    const closed: unknown = Reflect.get(sessions, 'closedSessionIds')
    if (closed instanceof Set && closed.has(sessionId)) return CLOSED_SESSION
    const ids: unknown = Reflect.get(sessions, 'sessionIds')
    if (!(ids instanceof Set) || !ids.has(sessionId)) return undefined
    const getSession: unknown = Reflect.get(sessions, 'getSession')
    const session: unknown = typeof getSession === 'function' ? getSession.call(sessions, sessionId) : undefined
    const project: unknown = session !== null && typeof session === 'object' ? Reflect.get(session, 'project') : undefined
    const name: unknown = project !== null && typeof project === 'object' ? Reflect.get(project, 'name') : undefined
    if (typeof name === 'string') this.seen.set(sessionId, name)
    return this.seen.get(sessionId)
  }
}

/** Where a call into Vitest comes from when a browser page made it (its RPC runs in @vitest/browser's bundle). */
const BROWSER_RPC_FRAME = /[\\/]@vitest[\\/]browser[\\/]dist[\\/]/

/**
 * Refuses a cancel of the run that a page asks for (Vitest's browser RPC `cancelCurrentRun` / `onCancel`), except
 * Vitest's own `--bail` once Node counts that many failed tests. Node-side cancels (keyboard, API, the harness's
 * Ctrl-C drain) are untouched. Installing twice is a no-op.
 */
export function guardRunCancel(vitest: Vitest): void {
  const marker = Symbol.for('assembly-world-bench.cancel-guard')
  if (Reflect.get(vitest, marker) === true) return
  Reflect.set(vitest, marker, true)
  const cancel = vitest.cancelCurrentRun.bind(vitest)
  vitest.cancelCurrentRun = async (reason) => {
    const fromPage = (new Error().stack ?? '').split('\n').slice(2).some(frame => BROWSER_RPC_FRAME.test(frame))
    if (fromPage) {
      const bail = vitest.config.bail ?? 0
      const failed = vitest.state.getCountOfFailedTests()
      if (!(reason === 'test-failure' && bail > 0 && failed >= bail)) {
        refused(`a page asked Vitest to cancel the run (${String(reason)}) and was refused${reason === 'test-failure' ? ` (bail ${bail}, ${failed} failed tests in Node's count)` : ''}`)
        return
      }
    }
    await cancel(reason)
  }
}
