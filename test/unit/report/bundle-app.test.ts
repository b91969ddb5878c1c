// The report page's script is bundled once and kept: a reuse must give the bytes a fresh bundle gives, and any change
// to a file it was built from (or to Vite) must bundle it again.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, cachedBundle } from '../../../src/report/html/bundle-app.ts'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'awb-report-app-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

interface Entry { vite: string; inputs: Record<string, string>; code: string }
const readEntry = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Entry

describe('the report page script cache', () => {
  it('keeps the fresh bundle with the hash of every file it was built from (its modules, three.js, the bundler module) and Vite\'s version', async () => {
    const cache = join(dir, 'kept.json')
    const fresh = await bundle()
    expect(await cachedBundle(cache)).toBe(fresh.code)
    const entry = await readEntry(cache)
    expect(entry.code).toBe(fresh.code)
    expect(entry.vite).toMatch(/^\d+\.\d+\.\d+\+\d+\.\d+\.\d+/)
    const files = Object.keys(entry.inputs)
    expect(files.some(file => file.endsWith('/src/report/html/app/report-app.ts'))).toBe(true)
    expect(files.some(file => /node_modules\/three\//.test(file))).toBe(true)
    expect(files.some(file => file.endsWith('/src/report/html/bundle-app.ts'))).toBe(true)
    for (const hash of Object.values(entry.inputs)) expect(hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('reuses the kept bundle while nothing changed, and bundles again when one input, Vite, or the file itself changed', async () => {
    const cache = join(dir, 'reuse.json')
    const fresh = await cachedBundle(cache)
    const entry = await readEntry(cache)
    // A sentinel in place of the code shows whether the kept entry was used.
    await writeFile(cache, JSON.stringify({ ...entry, code: 'kept' }))
    expect(await cachedBundle(cache)).toBe('kept')
    const [first] = Object.keys(entry.inputs)
    await writeFile(cache, JSON.stringify({ ...entry, code: 'kept', inputs: { ...entry.inputs, [first!]: '0'.repeat(64) } }))
    expect(await cachedBundle(cache)).toBe(fresh)
    await writeFile(cache, JSON.stringify({ ...entry, code: 'kept', vite: '0.0.0' }))
    expect(await cachedBundle(cache)).toBe(fresh)
    await writeFile(cache, '{"torn')
    expect(await cachedBundle(cache)).toBe(fresh)
    expect((await readEntry(cache)).code).toBe(fresh)
  })
})
