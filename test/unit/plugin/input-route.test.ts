import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInputRoute, InputGrants, type InputGrant } from '../../../plugin/input-route.ts'
import { openPackage, type BenchmarkPackage } from '../../../src/package/index.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'

let fixture: PackageFixture
let pkg: BenchmarkPackage
let server: Server
let base: string
let grants: InputGrants
let ikea: InputGrant
let finalImage: InputGrant
let none: InputGrant

beforeAll(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 1 })
  pkg = await openPackage(fixture.root)
  grants = new InputGrants()
  ikea = grants.grant('ikea-manualbook', 'sample-00')
  finalImage = grants.grant('partnet-final-image', 'sample-00')
  none = grants.grant('partnet-none', 'sample-00')
  const route = createInputRoute(pkg, grants)
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
  it('serves the initial episode and the reference pages of a granted sample, byte for byte', async () => {
    const response = await get(ikea.episodeUrl)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    const expected = await import('node:fs/promises').then(fs => fs.readFile(fixture.path(fixture.rel.episode('ikea-manualbook', 'sample-00'))))
    expect(Buffer.from(await response.arrayBuffer()).equals(expected)).toBe(true)
    const page = await get(ikea.pageUrl(2))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('image/png')
    expect((await get(finalImage.pageUrl(1))).status).toBe(200)
  })

  it('serves nothing under an unknown or revoked token, and tokens are not guessable from the sample', async () => {
    const other = grants.grant('ikea-manualbook', 'sample-00')
    expect(other.episodeUrl).not.toBe(ikea.episodeUrl)
    expect(ikea.episodeUrl).not.toContain('sample-00')
    expect((await get(other.episodeUrl)).status).toBe(200)
    other.revoke()
    expect((await get(other.episodeUrl)).status).toBe(404)
    expect((await get(other.pageUrl(1))).status).toBe(404)
    expect((await get('/@awb/input/ikea-manualbook/sample-00/initial.episode.zip')).status).toBe(404)
  })

  it.each([
    ['evaluation.json next to a token', (g: InputGrant) => g.episodeUrl.replace('initial.episode.zip', 'evaluation.json')],
    ['the cache folder', (g: InputGrant) => g.episodeUrl.replace('initial.episode.zip', 'cache/sample-00/evaluation.json')],
    ['traversal', (g: InputGrant) => g.episodeUrl.replace('initial.episode.zip', '../../../benchmark.json')],
    ['encoded traversal', (g: InputGrant) => g.episodeUrl.replace('initial.episode.zip', '%2e%2e%2fevaluation.json')],
    ['a page that does not exist', (g: InputGrant) => g.pageUrl(3)],
    ['page 0', (g: InputGrant) => g.pageUrl(0)],
    ['a page of a none block', () => none.pageUrl(1)],
    ['pages.json', (g: InputGrant) => g.pageUrl(1).replace(/1$/, 'pages.json')],
    ['a block/sample path instead of a token', () => '/@awb/input/ikea-manualbook/sample-00/initial.episode.zip'],
    ['a malformed escape', () => '/@awb/input/%E0%A4%A/initial.episode.zip'],
  ])('refuses %s (404)', async (_label, pathOf) => {
    const response = await rawGet(pathOf(ikea))
    expect(response.status).toBe(404)
    expect(response.body).not.toContain('"points"')
  })

  it('answers only GET and HEAD, and leaves other URLs to the next handler', async () => {
    expect((await get(ikea.episodeUrl, { method: 'POST' })).status).toBe(405)
    const head = await get(ikea.episodeUrl, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100)
    expect((await get('/other')).status).toBe(418)
  })

  it('refuses a file changed after the package was opened instead of serving it', async () => {
    await writeFile(fixture.path(fixture.rel.page('ikea-manualbook', 'sample-00', 1)), 'tampered')
    const response = await get(ikea.pageUrl(1))
    expect(response.status).toBe(500)
    expect(await response.text()).toMatch(/changed since the package was opened/)
  })
})
