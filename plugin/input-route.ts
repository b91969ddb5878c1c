// Serves the agent-visible inputs of the running samples over HTTP: each started sample's initial episode and
// reference pages, under an unguessable per-sample token, while it is open; nothing else.
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pageContentType, readEpisode, readPage, sampleKey, type BenchmarkPackage, type PackageSample } from '../src/package/index.ts'

/** URL prefix of the route on the test server. */
export const INPUT_ROUTE_PREFIX = '/@awb/input/'


/** Where the grants live: every instance of the plugin in this process (one per Vite server) serves the same. */
const GRANTS_SLOT = Symbol.for('assembly-world-bench.input-grants')

/** The URLs of one open sample's inputs, valid until revoked. */
export interface InputGrant {
  /** `/@awb/input/<token>/initial.episode.zip` */
  episodeUrl: string
  /** `/@awb/input/<token>/pages/<page>` (1-based). */
  pageUrl(page: number): string
  revoke(): void
}

/**
 * The open samples' tokens. A sample's inputs are served only to whoever holds its token (the page that started
 * it), only while it is open: not another sample's reference pages (the same shape is in two PartNet blocks, one
 * without a reference), and not to a process that merely finds the port.
 */
export class InputGrants {
  private readonly byToken = new Map<string, { block: string; sampleId: string }>()

  grant(block: string, sampleId: string): InputGrant {
    const token = randomBytes(24).toString('hex')
    this.byToken.set(token, { block, sampleId })
    return {
      episodeUrl: `${INPUT_ROUTE_PREFIX}${token}/initial.episode.zip`,
      pageUrl: page => `${INPUT_ROUTE_PREFIX}${token}/pages/${page}`,
      revoke: () => { this.byToken.delete(token) },
    }
  }

  lookup(token: string): { block: string; sampleId: string } | undefined {
    return this.byToken.get(token)
  }
}

/** The process's grants (shared by the plugin instances of the root config and of each browser server). */
export function sharedInputGrants(): InputGrants {
  const existing: unknown = Reflect.get(globalThis, GRANTS_SLOT)
  if (existing instanceof Object && typeof (existing as InputGrants).lookup === 'function') return existing as InputGrants
  const grants = new InputGrants()
  Reflect.set(globalThis, GRANTS_SLOT, grants)
  return grants
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

/**
 * A connect-style middleware. The URL names a token and one of two resources; it is never mapped to a file path,
 * so `evaluation.json`, other `cache/` content, traversal and other packages are unreachable by construction.
 * Anything but GET/HEAD on the route is 405; an unknown token or resource is 404. Bytes are re-hashed against the
 * package on every read, so a file changed after opening is refused (500) rather than served.
 */
export function createInputRoute(pkg: BenchmarkPackage, grants: InputGrants): Middleware {
  const samples = new Map<string, PackageSample>()
  for (const block of pkg.blocks) for (const sample of block.samples) samples.set(sampleKey(block.name, sample.id), sample)
  return (req, res, next) => {
    const url = req.url ?? ''
    if (!url.startsWith(INPUT_ROUTE_PREFIX)) return next()
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'Only GET and HEAD are served here')
    void serve(url.slice(INPUT_ROUTE_PREFIX.length), samples, grants, pkg, req.method === 'HEAD', res)
  }
}

async function serve(path: string, samples: ReadonlyMap<string, PackageSample>, grants: InputGrants, pkg: BenchmarkPackage, headOnly: boolean, res: ServerResponse): Promise<void> {
  const parts = path.split('?')[0]!.split('/')
  const [token, resource, page] = parts
  const granted = token === undefined ? undefined : grants.lookup(token)
  const sample = granted === undefined ? undefined : samples.get(sampleKey(granted.block, granted.sampleId))
  try {
    if (sample !== undefined && parts.length === 2 && resource === 'initial.episode.zip') {
      return send(res, 200, 'application/zip', await readEpisode(pkg, sample), headOnly)
    }
    if (sample !== undefined && parts.length === 3 && resource === 'pages' && page !== undefined && /^[1-9]\d*$/.test(page)) {
      const entry = sample.pages[Number(page) - 1]
      if (entry !== undefined) return send(res, 200, pageContentType(entry.path), await readPage(pkg, entry), headOnly)
    }
    send(res, 404, 'text/plain', 'Not an agent-visible input of an open sample')
  } catch (error) {
    send(res, 500, 'text/plain', error instanceof Error ? error.message : String(error))
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Uint8Array, headOnly = false): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': bytes.byteLength, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
  res.end(headOnly ? undefined : bytes)
}
