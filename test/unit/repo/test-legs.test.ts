// The test legs (test/legs/legs.json) stay what README says they are: the root lockfile pins Vitest 5 and the default
// Node runs it; every other leg's package.json is the root one with only its named devDependencies changed, and its
// committed lockfile resolves exactly those (so its `npm ci` installs what the leg claims to test).
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { adapterFor, SUPPORTED_VITEST } from '../../../plugin/vitest-compat/index.ts'
import { legManifest } from '../../../scripts/leg-manifest.mjs'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const read = (path: string): unknown => JSON.parse(readFileSync(join(ROOT, path), 'utf8'))

interface Manifest { devDependencies: Record<string, string>; peerDependencies: Record<string, string>; engines: { node: string } }
interface Lockfile { packages: Record<string, { version?: string; devDependencies?: Record<string, string> }> }
interface Legs { legs: Record<string, { node: string; devDependencies: Record<string, string>; tests: string[] }>; nodes: Record<string, { version: string }> }

const root = read('package.json') as Manifest
const legs = read('test/legs/legs.json') as Legs

describe('test legs', () => {
  it('the root lockfile pins Vitest 5 and its provider, and .node-version is a Node that Vitest 5 accepts', () => {
    const lock = read('package-lock.json') as Lockfile
    expect(lock.packages['node_modules/vitest']?.version).toMatch(/^5\./)
    expect(lock.packages['node_modules/@vitest/browser-playwright']?.version).toBe(lock.packages['node_modules/vitest']?.version)
    const [major, minor] = readFileSync(join(ROOT, '.node-version'), 'utf8').trim().split('.').map(Number) as [number, number]
    expect(major === 22 ? minor >= 12 : major >= 24).toBe(true)
  })

  it('the peer range is the one the compatibility layer supports, and covers every leg\'s Vitest', () => {
    expect(root.peerDependencies.vitest).toBe(SUPPORTED_VITEST)
    for (const leg of Object.values(legs.legs)) expect(() => adapterFor(leg.devDependencies.vitest!)).not.toThrow()
    expect(root.peerDependencies['@vitest/browser-playwright']).toBe(root.peerDependencies.vitest)
  })

  it.each(Object.entries(legs.legs))('leg %s: its package.json is the root one with its devDependencies, and its lockfile resolves them', (name, leg) => {
    expect(read(`test/legs/${name}/package.json`), `run \`node scripts/test-legs.mjs --lock ${name}\``).toEqual(legManifest(root, leg.devDependencies))
    const lock = read(`test/legs/${name}/package-lock.json`) as Lockfile
    expect(lock.packages['']?.devDependencies).toEqual(legManifest(root, leg.devDependencies).devDependencies)
    for (const [dependency, version] of Object.entries(leg.devDependencies)) expect(lock.packages[`node_modules/${dependency}`]?.version, dependency).toBe(version)
    expect(leg.tests.length).toBeGreaterThan(0)
  })

  it('refuses a leg that overrides something the project does not depend on', () => {
    expect(() => legManifest(root, { 'left-pad': '1.0.0' })).toThrow(/left-pad, which is not a devDependency/)
  })
})
