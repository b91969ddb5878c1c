import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInputRoute, episodeUrl, pageUrl } from '../../../plugin/input-route.ts'
import { openPackage, type BenchmarkPackage } from '../../../src/package/index.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'

let fixture: PackageFixture
let pkg: BenchmarkPackage
let server: Server
let base: string

beforeAll(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 1 })
  pkg = await openPackage(fixture.root)
  const route = createInputRoute(pkg)
  server = createServer((req, res) => route(req, res, () => { res.statusCode = 418; res.end('next') }))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise(resolve => server.close(resolve))
  await fixture.cleanup()
})

const get = (path: string, init?: RequestInit) => fetch(base + path, init)

/** A GET whose path is sent as written (fetch would normalise `..` away before it leaves the client). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { path, method: 'GET' }, (res) => {
      let body = ''
      res.on('data', chunk => { body += String(chunk) })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the input route', () => {
  it('serves the initial episode and the reference pages, byte for byte', async () => {
    const response = await get(episodeUrl('ikea-manualbook', 'sample-00'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    const expected = await import('node:fs/promises').then(fs => fs.readFile(fixture.path(fixture.rel.episode('ikea-manualbook', 'sample-00'))))
    expect(Buffer.from(await response.arrayBuffer()).equals(expected)).toBe(true)
    const page = await get(pageUrl('ikea-manualbook', 'sample-00', 2))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('image/png')
    expect((await get(pageUrl('partnet-final-image', 'sample-00', 1))).status).toBe(200)
  })

  it.each([
    ['evaluation.json by its package path', '/@awb/input/ikea-manualbook/sample-00/evaluation.json'],
    ['the cache folder', '/@awb/input/ikea-manualbook/sample-00/cache/sample-00/evaluation.json'],
    ['traversal', '/@awb/input/ikea-manualbook/sample-00/../../../benchmark.json'],
    ['encoded traversal', '/@awb/input/ikea-manualbook/sample-00/%2e%2e%2fevaluation.json'],
    ['a page that does not exist', '/@awb/input/ikea-manualbook/sample-00/pages/3'],
    ['page 0', '/@awb/input/ikea-manualbook/sample-00/pages/0'],
    ['a page of a none block', '/@awb/input/partnet-none/sample-00/pages/1'],
    ['pages.json', '/@awb/input/ikea-manualbook/sample-00/pages/pages.json'],
    ['an unknown sample', '/@awb/input/ikea-manualbook/sample-99/initial.episode.zip'],
    ['an unknown block', '/@awb/input/other/sample-00/initial.episode.zip'],
    ['a malformed escape', '/@awb/input/ikea-manualbook/%E0%A4%A/initial.episode.zip'],
  ])('refuses %s (404)', async (_label, path) => {
    const response = await rawGet(path)
    expect(response.status).toBe(404)
    expect(response.body).not.toContain('"points"')
  })

  it('answers only GET and HEAD, and leaves other URLs to the next handler', async () => {
    expect((await get(episodeUrl('ikea-manualbook', 'sample-00'), { method: 'POST' })).status).toBe(405)
    const head = await get(episodeUrl('ikea-manualbook', 'sample-00'), { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100)
    expect((await get('/other')).status).toBe(418)
  })

  it('refuses a file changed after the package was opened instead of serving it', async () => {
    await writeFile(fixture.path(fixture.rel.page('ikea-manualbook', 'sample-00', 1)), 'tampered')
    const response = await get(pageUrl('ikea-manualbook', 'sample-00', 1))
    expect(response.status).toBe(500)
    expect(await response.text()).toMatch(/changed since the package was opened/)
  })
})
