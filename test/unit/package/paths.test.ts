import { describe, expect, it } from 'vitest'
import { assertSafeRelativePath, assertSampleId, isValidSampleId, PackageError, sampleSlug } from '../../../src/package/index.ts'

describe('sample ids and slugs (§2.1 rules 4–5)', () => {
  it('slugs replace every "/" by "--"', () => {
    expect(sampleSlug('Chair/reidar')).toBe('Chair--reidar')
    expect(sampleSlug('00/00017')).toBe('00--00017')
    expect(sampleSlug('2738')).toBe('2738')
  })

  it.each(['', 'Chair/', '/Chair', 'a//b', 'a/../b', '..', '.', 'a b', 'Chair/réidar', 'a\\b'])('rejects the invalid id %j', id => {
    expect(isValidSampleId(id)).toBe(false)
    expect(() => sampleSlug(id, { file: 'benchmark.json', field: 'blocks[0].samples' })).toThrowError(PackageError)
    try {
      assertSampleId(id, { file: 'benchmark.json' })
    } catch (error) {
      expect(error).toBeInstanceOf(PackageError)
      expect((error as PackageError).code).toBe('PACKAGE_INVALID_SAMPLE_ID')
      expect((error as PackageError).message).toContain('benchmark.json')
    }
  })

  it('accepts ids made of [A-Za-z0-9_.-] segments, dots inside a segment included', () => {
    for (const id of ['Chair/jules_1', 'a.b/c-d', '...', '00/00017']) expect(isValidSampleId(id)).toBe(true)
  })
})

describe('safe relative paths (§2.1 rule 2)', () => {
  it.each([
    ['/etc/passwd', 'absolute'],
    ['C:/x', 'absolute'],
    ['a/../b', '".."'],
    ['a\\b', 'backslash'],
    ['a//b', 'empty segment'],
    ['a/', 'empty segment'],
    ['', 'empty'],
  ])('rejects %j (%s)', (path, reason) => {
    let caught: unknown
    try {
      assertSafeRelativePath(path, { file: 'pages.json', field: 'pages[0].file' })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(PackageError)
    expect((caught as PackageError).code).toBe('PACKAGE_UNSAFE_PATH')
    expect((caught as PackageError).message).toContain(reason)
    expect((caught as PackageError).message).toContain('pages.json')
  })

  it('accepts ordinary relative paths', () => {
    expect(() => assertSafeRelativePath('ikea-manualbook/ikea-manual/prep/config.json')).not.toThrow()
    expect(() => assertSafeRelativePath('a/.hidden/..b')).not.toThrow()
  })
})
