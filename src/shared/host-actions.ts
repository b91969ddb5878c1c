// Routes of a Vite dev server that make the host act instead of serving a file. Vite answers
// `GET /__open-in-editor?file=PATH` by starting a program on the host: the user's editor (LAUNCH_EDITOR, an editor it
// finds running, VISUAL or EDITOR) on any existing PATH, after running `ps` to look for one. It takes the request from
// anyone: page code, an agent's realm (a no-cors request is enough: its answer stays unreadable, the program starts
// anyway) and any local process (a sandboxed external agent reaches 127.0.0.1). So every Vite server of a benchmark
// run (plugin/index.ts) and the headless page server (src/headless/browser-page.ts) refuse these routes before Vite
// sees them. The cost: the "open in editor" links of Vitest's UI do nothing during a benchmark run.
import type { IncomingMessage, ServerResponse } from 'node:http'

/** The host-action routes, as Vite mounts them. */
export const HOST_ACTION_ROUTES: readonly string[] = ['/__open-in-editor']

/** How often the path is percent-decoded before it is judged. */
const DECODE_ROUNDS = 4

/**
 * Whether a request URL could reach a host-action route: the route anywhere in the path (Vite strips a `base` before
 * it matches), in any letter case (connect matches mounted routes case-insensitively), encoded or not. Errs towards
 * refusing: no file a page needs has such a name.
 */
export function isHostActionUrl(url: string): boolean {
  let path = url.split(/[?#]/, 1)[0] ?? ''
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    const plain = path.toLowerCase().replace(/\/+/g, '/')
    if (HOST_ACTION_ROUTES.some(route => plain.includes(route))) return true
    let next: string
    try {
      next = decodeURIComponent(path)
    } catch {
      // A malformed escape elsewhere in the path: decode the escapes that are whole characters.
      next = path.replace(/%[0-7][0-9a-f]/gi, escape => String.fromCharCode(Number.parseInt(escape.slice(1), 16)))
    }
    if (next === path) return false
    path = next
  }
  return true
}

/** A connect middleware that answers 403 to a host-action request and passes every other one on. */
export function refuseHostActions(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (!isHostActionUrl(req.url ?? '')) return next()
  const body = 'Refused: during a benchmark run no page or local process may make this machine open a file in an editor (Vite\'s /__open-in-editor starts a program on the host).'
  res.writeHead(403, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' })
  res.end(req.method === 'HEAD' ? undefined : body)
}
