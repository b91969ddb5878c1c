// The reference-page type table: every extension maps to a type that maps back to a saved extension, case-insensitively.
import { describe, expect, it } from 'vitest'
import { isPageMimeType, PAGE_MIME_TYPES, pageContentType, pageFileExtension, pageMimeType } from '../../../src/package/index.ts'

describe('page types', () => {
  it('reads the type from the extension, whatever its case and folders', () => {
    expect(pageMimeType('pages/page-0001.png')).toBe('image/png')
    expect(pageMimeType('a.b/page-0002.JPG')).toBe('image/jpeg')
    expect(pageMimeType('page.jpeg')).toBe('image/jpeg')
    expect(pageMimeType('page.webp')).toBe('image/webp')
  })

  it('knows no other file, and announces it as bytes', () => {
    for (const path of ['page.gif', 'page', 'png', 'dir.png/page', 'page.toString']) expect(pageMimeType(path)).toBeUndefined()
    expect(pageContentType('page.gif')).toBe('application/octet-stream')
    expect(isPageMimeType('image/gif')).toBe(false)
  })

  it('saves each type with an extension that reads back as the same type', () => {
    for (const type of Object.values(PAGE_MIME_TYPES)) {
      expect(isPageMimeType(type)).toBe(true)
      expect(pageMimeType(`reference-0001.${pageFileExtension(type)}`)).toBe(type)
    }
    expect(pageFileExtension('image/gif')).toBe('bin')
  })
})
