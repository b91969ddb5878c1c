// Serves the agent-visible inputs of a package over HTTP: initial episodes and reference pages, nothing else.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname } from 'node:path'
import { readEpisode, readPage, type BenchmarkPackage, type PackageSample } from '../src/package/index.ts'

/** URL prefix of the route on the test server. */
export const INPUT_ROUTE_PREFIX = '/@awb/input/'

const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' }

/** URL of a sample's initial episode: `/@awb/input/<block>/<slug>/initial.episode.zip`. */
export function episodeUrl(block: string, slug: string): string {
  return `${INPUT_ROUTE_PREFIX}${encodeURIComponent(block)}/${encodeURIComponent(slug)}/initial.episode.zip`
}

/** URL of a sample's reference page `page` (1-based): `/@awb/input/<block>/<slug>/pages/<page>`. */
export function pageUrl(block: string, slug: string, page: number): string {
  return `${INPUT_ROUTE_PREFIX}${encodeURIComponent(block)}/${encodeURIComponent(slug)}/pages/${page}`
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

/**
 * A connect-style middleware. The URL names a (block, slug) and one of two resources; it is never mapped to a
 * file path, so `evaluation.json`, other `cache/` content, traversal and other packages are unreachable by
 * construction. Anything but GET/HEAD on the route is 405; an unknown resource is 404. Bytes are re-hashed
 * against the package on every read, so a file changed after opening is refused (500) rather than served.
 */
export function createInputRoute(pkg: BenchmarkPackage): Middleware {
  const samples = new Map<string, PackageSample>()
  for (const block of pkg.blocks) for (const sample of block.samples) samples.set(`${block.name}/${sample.slug}`, sample)
  return (req, res, next) => {
    const url = req.url ?? ''
    if (!url.startsWith(INPUT_ROUTE_PREFIX)) return next()
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'Only GET and HEAD are served here')
    void serve(url.slice(INPUT_ROUTE_PREFIX.length), samples, pkg, req.method === 'HEAD', res)
  }
}

async function serve(path: string, samples: ReadonlyMap<string, PackageSample>, pkg: BenchmarkPackage, headOnly: boolean, res: ServerResponse): Promise<void> {
  const parts = path.split('?')[0]!.split('/').map(safeDecode)
  const [block, slug, resource, page] = parts
  const sample = block === undefined || slug === undefined ? undefined : samples.get(`${block}/${slug}`)
  try {
    if (sample !== undefined && parts.length === 3 && resource === 'initial.episode.zip') {
      return send(res, 200, 'application/zip', await readEpisode(pkg, sample), headOnly)
    }
    if (sample !== undefined && parts.length === 4 && resource === 'pages' && page !== undefined && /^[1-9]\d*$/.test(page)) {
      const entry = sample.pages[Number(page) - 1]
      if (entry !== undefined) return send(res, 200, IMAGE_TYPES[extname(entry.path).toLowerCase()] ?? 'application/octet-stream', await readPage(pkg, entry), headOnly)
    }
    send(res, 404, 'text/plain', 'Not an agent-visible input of this benchmark')
  } catch (error) {
    send(res, 500, 'text/plain', error instanceof Error ? error.message : String(error))
  }
}

/** A malformed escape never matches a sample, so it decodes to a value no block or slug can have. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return '\u0000'
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Uint8Array, headOnly = false): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': bytes.byteLength, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
  res.end(headOnly ? undefined : bytes)
}
