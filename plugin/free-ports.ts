// Free TCP ports for the block projects' browser servers, picked by the OS; opens nothing that outlives the call.
import { createServer, type Server } from 'node:net'

/**
 * `count` distinct ports that are free on `host` now: each is bound to port 0 (the OS picks an unused one), and all
 * are released together once every port is known, so no two coincide.
 *
 * Why: Vitest gives each browser project the next port from 63315 and Vite, finding one taken (another run, or a
 * project that started first and took the next one), walks up port by port, printing "Port … is in use, trying
 * another one..." each time: dozens of lines with many blocks. Vitest turns `port: 0` into its default, so the
 * plugin asks the OS itself. A port taken between this call and the server's start still falls back to Vite's walk.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers: Server[] = []
  try {
    const ports: number[] = []
    for (let i = 0; i < count; i++) {
      const server = createServer()
      servers.push(server)
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(0, host, resolve)
      })
      const address = server.address()
      if (address === null || typeof address === 'string') throw new Error(`freePorts: ${host} gave no TCP port`)
      ports.push(address.port)
    }
    return ports
  } finally {
    await Promise.all(servers.map(server => new Promise<void>(resolve => server.close(() => resolve()))))
  }
}
