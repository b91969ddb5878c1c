// The block projects' browser ports: distinct, free, and released by the time the call returns.
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { freePorts } from '../../../plugin/free-ports.ts'

function listenOn(port: number): Promise<void> {
  const server = createServer()
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()))
  })
}

describe('freePorts', () => {
  it('gives distinct ports that can be listened on right after', async () => {
    const ports = await freePorts(6)
    expect(new Set(ports).size).toBe(6)
    for (const port of ports) await listenOn(port)
  })
})
