import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { composePrompt, PROTOCOL } from '../../../src/agents/prompt.ts'

describe('composePrompt', () => {
  it('is the task text as read, a newline, then the protocol block that starts and ends with a newline', () => {
    // task.txt ends with its own newline, so three newlines separate it from the protocol text (§13.2).
    const prompt = composePrompt('Assemble the parts.\n')
    expect(prompt.startsWith('Assemble the parts.\n\n\nThe scheduler has loaded your episode in a dedicated browser.\n')).toBe(true)
    expect(prompt.endsWith('or unable), summary, checked_connections and uncertainties.\n')).toBe(true)
    expect(composePrompt('No newline')).toBe(`No newline\n${PROTOCOL}`)
  })

  it('keeps the protocol block byte-stable (11 lines, no trailing spaces)', () => {
    const lines = PROTOCOL.split('\n')
    expect(lines[0]).toBe('')
    expect(lines.at(-1)).toBe('')
    expect(lines.slice(1, -1)).toHaveLength(11)
    expect(lines.every(line => line === line.trimEnd())).toBe(true)
    // Pinned so an accidental edit of the block (which would make runs incomparable) fails loudly.
    expect(createHash('sha256').update(PROTOCOL).digest('hex')).toBe('299ac3a1110338d1cd14187bc3a270556a20b298ae85cd1debfd81d61dc5d533')
  })
})
