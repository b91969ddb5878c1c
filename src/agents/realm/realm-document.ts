// Page side: the document of an agent's realm, a sandboxed frame's srcdoc. It holds only a bootstrap that waits for
// the harness's one connect message (its port and the bundled agent code) and evaluates that code as a module.
import { REALM_CONNECT } from './messages.ts'

/**
 * The realm's Content-Security-Policy. Scripts: only the bootstrap (by nonce) and the code it imports from a blob
 * URL, so no script is ever loaded from the Vite server (a classic `<script src>` would bypass CORS); eval and
 * WebAssembly stay allowed, as they were for page agents, since code run in the realm gains nothing. No plugins,
 * nested frames, forms or base URL. Network requests are left as any web page's: from the realm's opaque origin the
 * Vite server's answers are unreadable (no CORS for origin `null`), and an agent may call its own services.
 */
function policy(nonce: string): string {
  return [
    `script-src 'nonce-${nonce}' blob: 'unsafe-eval' 'wasm-unsafe-eval'`,
    "object-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src blob:",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ')
}

/**
 * The bootstrap. Only the parent (the harness) may connect, once: anything else that posts to the frame is ignored.
 * A failure to evaluate the code (a user module that throws at load) is reported on the port, for the harness to
 * say which module failed.
 */
const BOOTSTRAP = `(() => {
  const connect = (event) => {
    const data = event.data
    if (event.source !== parent || event.ports.length !== 1 || data === null || typeof data !== 'object' || data.type !== ${JSON.stringify(REALM_CONNECT)} || typeof data.code !== 'string') return
    removeEventListener('message', connect)
    const port = event.ports[0]
    const url = URL.createObjectURL(new Blob([data.code], { type: 'text/javascript' }))
    const failed = (error) => port.postMessage({ type: 'load-failed', message: error instanceof Error ? error.message : String(error) })
    import(url).then((realm) => {
      URL.revokeObjectURL(url)
      try { realm.start(port) } catch (error) { failed(error) }
    }, (error) => {
      URL.revokeObjectURL(url)
      failed(error)
    })
  }
  addEventListener('message', connect)
})()`

/** The srcdoc of a realm whose bootstrap runs under `nonce` (fresh per realm). */
export function realmDocument(nonce: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy(nonce)}"><title>agent realm</title><script nonce="${nonce}">${BOOTSTRAP}</script></head><body></body></html>`
}
