// Page side: an agent's realm is a sandboxed frame (`sandbox="allow-scripts"`, no `allow-same-origin`, so its origin
// is opaque): no reference to the tester page's globals, Vitest's runner, its RPC, `commands` or the harness's state
// reaches it. The harness talks to it over one MessageChannel whose other end it transfers once, with the code.
// Chromium runs such a frame in its own renderer process (sandboxed frames are isolated from their parent), so an
// agent that spins does not block the harness; removing the frame ends whatever the agent still runs.
import { AgentRealmError } from './errors.ts'
import { RealmMessageSchema, type ParsedRealmMessage } from './message-schemas.ts'
import { REALM_CONNECT, type HarnessMessage } from './messages.ts'
import { realmDocument } from './realm-document.ts'

/** How long a realm may take to load its frame and evaluate its code (a user module included) by default. */
export const REALM_START_LIMIT_MS = 30_000

/** A realm's message as the harness handles it: parsed, or the reason it was refused (and its id, to answer it). */
export type RealmEvent =
  | Exclude<ParsedRealmMessage, { type: 'ready' | 'load-failed' | 'console' }>
  | { type: 'invalid'; id: number | null; problem: string }

export interface AgentRealm {
  /**
   * Resolves once the realm's code was evaluated and it waits for `init`. Rejects with an AgentRealmError:
   * AGENT_REALM_LOAD_FAILED (the code threw while evaluated), AGENT_REALM_NOT_STARTED (no answer in time, or disposed).
   */
  readonly ready: Promise<void>
  /** Sends `message` to the realm; nothing once it is disposed. */
  post(message: HarnessMessage): void
  /** Where the realm's messages go (console output aside): one listener, set once the run starts. */
  listen(handler: (event: RealmEvent) => void): void
  /**
   * Closes the port: nothing the realm sends is handled any more, nothing more reaches it. The frame stays until
   * `dispose` (an agent that has answered can lose nothing more; its frame's teardown can wait for an idle moment).
   */
  close(): void
  /** Closes the port and removes the frame: the agent stops with it, whatever it was doing. Idempotent. */
  dispose(): void
}

export interface OpenRealmOptions {
  /** Default REALM_START_LIMIT_MS. */
  startLimitMs?: number
  /** The document the frame goes into (default: this page's). */
  document?: Document
  /** Where the agent's console output is printed (default: this page's console, which Vitest collects). */
  console?: Pick<Console, 'log' | 'info' | 'warn' | 'error' | 'debug'>
}

/**
 * A realm's frame before it runs anything: its bootstrap only. Made ahead of need (see prepareAgentRealm), its
 * renderer process starts while the page waits on Node rather than while the next sample's world opens.
 */
interface BlankFrame {
  frame: HTMLIFrameElement
  loaded: Promise<void>
}

/** The frame made ahead for this page's next realm, if any; never connected, so it holds nothing of any sample. */
let spare: BlankFrame | undefined

function blankFrame(doc: Document): BlankFrame {
  const frame = doc.createElement('iframe')
  frame.setAttribute('sandbox', 'allow-scripts')
  frame.setAttribute('referrerpolicy', 'no-referrer')
  frame.setAttribute('aria-hidden', 'true')
  frame.dataset.awbRealm = 'spare'
  frame.title = 'agent realm'
  // In the viewport and not display:none: Chromium throttles the timers of hidden cross-origin frames.
  frame.style.cssText = 'position:fixed;right:0;bottom:0;width:1px;height:1px;border:0;opacity:0;pointer-events:none'
  frame.srcdoc = realmDocument(nonce())
  const loaded = new Promise<void>(resolve => frame.addEventListener('load', () => resolve(), { once: true }))
  ;(doc.body ?? doc.documentElement).append(frame)
  return { frame, loaded }
}

/**
 * Makes the frame of this page's next realm now (when none is waiting): call it once an agent's realm is gone and
 * the page waits on Node (scoring), so that the next sample does not wait for a renderer process to start.
 */
export function prepareAgentRealm(options: Pick<OpenRealmOptions, 'document'> = {}): void {
  const doc = options.document ?? document
  if (spare === undefined || !spare.frame.isConnected || spare.frame.ownerDocument !== doc) spare = blankFrame(doc)
}

/** Creates (or takes the prepared) frame of a realm running `code` (the bundled realm module, see agent-bundle.ts) and connects it. */
export function openAgentRealm(code: string, options: OpenRealmOptions = {}): AgentRealm {
  const doc = options.document ?? document
  const out = options.console ?? console
  const taken = spare !== undefined && spare.frame.isConnected && spare.frame.ownerDocument === doc ? spare : blankFrame(doc)
  spare = undefined
  const { frame } = taken
  frame.dataset.awbRealm = 'running'
  const channel = new MessageChannel()
  const port = channel.port1

  let disposed = false
  let handler: ((event: RealmEvent) => void) | undefined
  const queued: RealmEvent[] = []
  let settle: { resolve(): void; reject(error: Error): void } | undefined
  const ready = new Promise<void>((resolve, reject) => { settle = { resolve, reject } })
  // Awaited by the run; a realm disposed before anyone awaits it must not report an unhandled rejection.
  ready.catch(() => {})
  const startLimitMs = options.startLimitMs ?? REALM_START_LIMIT_MS
  const timer = setTimeout(() => fail(new AgentRealmError('AGENT_REALM_NOT_STARTED', `the agent's realm did not start within ${startLimitMs / 1000} s (its frame did not load, or its code did not answer)`)), startLimitMs)

  function fail(error: AgentRealmError): void {
    clearTimeout(timer)
    settle?.reject(error)
    settle = undefined
  }

  function deliver(event: RealmEvent): void {
    if (handler === undefined) queued.push(event)
    else handler(event)
  }

  port.onmessage = (event: MessageEvent<unknown>) => {
    if (disposed) return
    const parsed = RealmMessageSchema.safeParse(event.data)
    if (!parsed.success) {
      const id = (event.data as { id?: unknown } | null)?.id
      deliver({ type: 'invalid', id: typeof id === 'number' && Number.isInteger(id) ? id : null, problem: parsed.error.issues.map(issue => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ') })
      return
    }
    const message = parsed.data
    switch (message.type) {
      case 'console':
        out[message.level](...message.args)
        return
      case 'ready':
        clearTimeout(timer)
        settle?.resolve()
        settle = undefined
        return
      case 'load-failed':
        fail(new AgentRealmError('AGENT_REALM_LOAD_FAILED', message.message))
        return
      default:
        deliver(message)
    }
  }

  function close(): void {
    if (disposed) return
    disposed = true
    fail(new AgentRealmError('AGENT_REALM_NOT_STARTED', 'the agent\'s realm was removed before it started'))
    port.onmessage = null
    port.close()
  }

  void taken.loaded.then(() => {
    if (disposed) return
    frame.contentWindow?.postMessage({ type: REALM_CONNECT, code }, '*', [channel.port2])
  })

  return {
    ready,
    post(message) {
      if (!disposed) port.postMessage(message)
    },
    listen(next) {
      handler = next
      for (const event of queued.splice(0)) next(event)
    },
    close,
    dispose() {
      close()
      frame.remove()
    },
  }
}

/** A fresh CSP nonce: the bootstrap is the frame's one script that runs without coming from the harness's blob. */
function nonce(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map(byte => byte.toString(16).padStart(2, '0')).join('')
}
