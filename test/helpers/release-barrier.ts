// A barrier a page agent in a child run can wait on (the slow agent of the browser-fault tests): its realm fetches
// `${url}/wait`, which answers only once the test calls release(), and at once afterwards. A test holds samples in
// flight exactly as long as it needs them there, never for a fixed time.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReleaseBarrier {
  /** The barrier's origin, for the agent (VITE_AWB_RELEASE_URL). */
  url: string
  /** Answers every waiting request, and every later one at once. */
  release(): void
  close(): Promise<void>
}

export async function startReleaseBarrier(): Promise<ReleaseBarrier> {
  let released = false
  const waiting = new Set<ServerResponse>()
  const answer = (res: ServerResponse) => {
    // The realm is an opaque origin (`null`): without this header its fetch cannot read the answer.
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' })
    res.end('released')
  }
  const server = createServer((req, res) => {
    if (req.url !== '/wait') {
      res.writeHead(404).end()
      return
    }
    if (released) return answer(res)
    waiting.add(res)
    res.on('close', () => waiting.delete(res))
  })
  await new Promise<void>(resolvePromise => server.listen(0, '127.0.0.1', resolvePromise))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release() {
      released = true
      for (const res of waiting) answer(res)
      waiting.clear()
    },
    async close() {
      server.closeAllConnections()
      await new Promise(resolvePromise => server.close(resolvePromise))
    },
  }
}
