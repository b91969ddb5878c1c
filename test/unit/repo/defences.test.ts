// The defence manifest that scripts/check-defences.mjs walks (test/defences/defences.json) stays true to the code:
// every removal anchor occurs exactly once in its file, every proving test exists, and SECURITY.md's defence table
// names every defence, so a refactor cannot silently turn the removal check into a no-op.
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

interface Edit { file: string; find: string; replace: string }
interface Defence { id: string; what: string; file?: string; find?: string; replace?: string; also?: Edit[]; tests: string[] }
const { defences } = JSON.parse(readFileSync(join(ROOT, 'test', 'defences', 'defences.json'), 'utf8')) as { defences: Defence[] }

describe('the defence manifest', () => {
  it('has unique ids, each with a removal and at least one test', () => {
    expect(new Set(defences.map(defence => defence.id)).size).toBe(defences.length)
    for (const defence of defences) {
      expect(defence.tests.length, defence.id).toBeGreaterThan(0)
      expect(typeof defence.file, defence.id).toBe('string')
      expect(defence.replace, defence.id).not.toBe(defence.find)
    }
  })

  it.each(defences.map(defence => [defence.id, defence] as const))('%s: its anchor occurs exactly once and its tests exist', (_id, defence) => {
    for (const edit of [defence as Edit, ...(defence.also ?? [])]) {
      const source = readFileSync(join(ROOT, edit.file), 'utf8')
      expect(source.split(edit.find).length - 1, `${edit.file} must contain the anchor once: ${edit.find}`).toBe(1)
    }
    for (const test of defence.tests) expect(existsSync(join(ROOT, test)), test).toBe(true)
  })

  it('SECURITY.md names every defence, and every defence it names is in the manifest', () => {
    const security = readFileSync(join(ROOT, 'SECURITY.md'), 'utf8')
    const named = new Set([...security.matchAll(/`defence:([a-z0-9-]+)`/g)].map(match => match[1]))
    expect([...named].sort()).toEqual(defences.map(defence => defence.id).sort())
  })
})
