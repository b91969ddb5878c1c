import { describe, expect, it, vi } from 'vitest'
import { main } from '../../../src/cli/main.ts'

describe('awb command line', () => {
  it('answers an unknown command with a usage error (exit 2)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      expect(await main(['frobnicate'])).toBe(2)
      expect(String(stderr.mock.calls[0]?.[0])).toContain('unknown command "frobnicate"')
    } finally {
      stderr.mockRestore()
    }
  })

  it('requires a command (exit 2)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      expect(await main([])).toBe(2)
    } finally {
      stderr.mockRestore()
    }
  })
})
