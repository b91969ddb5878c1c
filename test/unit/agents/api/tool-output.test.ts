import { describe, expect, it } from 'vitest'
import { splitToolOutput } from '../../../../src/agents/api/index.ts'

describe('splitToolOutput', () => {
  it('lifts every image node out in document order and leaves a marker saying where it went', () => {
    const output = JSON.stringify({ content: [{ type: 'image', mimeType: 'image/png', data: 'AAA' }], nested: { more: [{ type: 'image', mimeType: 'image/jpeg', data: 'BBB' }] }, camera: { position: [1, 2, 3] } })
    const split = splitToolOutput(output, 'below')
    expect(split.images).toEqual([{ mimeType: 'image/png', data: 'AAA' }, { mimeType: 'image/jpeg', data: 'BBB' }])
    expect(JSON.parse(split.text)).toEqual({
      content: [{ type: 'image', mimeType: 'image/png', attached: 'below' }],
      nested: { more: [{ type: 'image', mimeType: 'image/jpeg', attached: 'below' }] },
      camera: { position: [1, 2, 3] },
    })
    expect(split.isError).toBe(false)
  })

  it('keeps an answer without images byte for byte, and flags the error envelope', () => {
    const output = '{"error":"Unknown object: x","code":"invalid_argument"}'
    expect(splitToolOutput(output, 'x')).toEqual({ text: output, images: [], isError: true })
    expect(splitToolOutput('{"status":"completed", "index": 1}', 'x').text).toBe('{"status":"completed", "index": 1}')
  })

  it('passes non-JSON through as text and ignores image-like nodes without base64 data', () => {
    expect(splitToolOutput('not json', 'x')).toEqual({ text: 'not json', images: [], isError: false })
    expect(splitToolOutput('{"type":"image","mimeType":"image/png","observation":"a.png"}', 'x').images).toEqual([])
  })
})
