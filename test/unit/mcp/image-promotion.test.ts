// Image promotion (runner.md §4.4): serialized image nodes anywhere in a tool's JSON output become MCP images.
import { describe, expect, it } from 'vitest'
import { IMAGE_PLACEHOLDER, promoteImages } from '../../../src/mcp/index.ts'

describe('promoteImages', () => {
  it('promotes nested image nodes in document order and replaces each with the placeholder', () => {
    const output = JSON.stringify({ content: [{ type: 'image', data: 'AAA', mimeType: 'image/png' }], more: { deep: [{ type: 'image', data: 'BBB', mimeType: 'image/jpeg' }] }, n: 1 })
    const promoted = promoteImages(output)
    expect(promoted.images).toEqual([{ type: 'image', data: 'AAA', mimeType: 'image/png' }, { type: 'image', data: 'BBB', mimeType: 'image/jpeg' }])
    expect(JSON.parse(promoted.text)).toEqual({ content: [IMAGE_PLACEHOLDER], more: { deep: [IMAGE_PLACEHOLDER] }, n: 1 })
    expect(promoted.text).not.toContain('AAA')
  })

  it('leaves image-like nodes without data or mimeType, outputs without images and non-JSON text unchanged', () => {
    const stored = JSON.stringify({ content: [{ type: 'image', mimeType: 'image/png', observation: 'obs-1' }] })
    expect(promoteImages(stored)).toEqual({ text: stored, images: [] })
    const spaced = '{ "a" : 1 }'
    expect(promoteImages(spaced)).toEqual({ text: spaced, images: [] })
    expect(promoteImages('not json')).toEqual({ text: 'not json', images: [] })
  })
})
