// The one JSONL splitter: values with their line numbers, blank lines skipped, a bad line reported, not thrown.
import { describe, expect, it } from 'vitest'
import { splitJsonLines } from '../../../src/shared/json-lines.ts'

describe('splitJsonLines', () => {
  it('parses each non-blank line and numbers lines as the file does (blank and CRLF lines included)', () => {
    const rows = [...splitJsonLines('{"a":1}\r\n\n  \n[2]\n"three"\n')]
    expect(rows).toEqual([{ line: 1, value: { a: 1 } }, { line: 4, value: [2] }, { line: 5, value: 'three' }])
  })

  it('reports a line that is not JSON with its number and the parser\'s reason, and goes on', () => {
    const rows = [...splitJsonLines('1\n{"torn":\n3')]
    expect(rows.map(row => row.line)).toEqual([1, 2, 3])
    expect(rows[1]?.value).toBeUndefined()
    expect(rows[1]?.error).toBeInstanceOf(SyntaxError)
    expect(rows[2]).toEqual({ line: 3, value: 3 })
  })

  it('gives nothing for an empty text', () => {
    expect([...splitJsonLines('')]).toEqual([])
  })
})
