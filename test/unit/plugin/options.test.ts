import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../../plugin/options.ts'

describe('plugin options', () => {
  it('caps scoring workers with a clear error naming the variable', () => {
    expect(resolveOptions({}, { AWB_SCORING_WORKERS: '8' }, '/repo').scoringWorkers).toBe(8)
    expect(() => resolveOptions({}, { AWB_SCORING_WORKERS: '5000' }, '/repo')).toThrow(/scoringWorkers: at most 64 scoring workers \(from the plugin options or the matching AWB_\* variable\)/)
    expect(() => resolveOptions({ scoringWorkers: 65 }, {}, '/repo')).toThrow(/at most 64/)
  })

  it('makes a page agent module path absolute against the project root and keeps agent names as they are', () => {
    expect(resolveOptions({ agent: './agents/mine.ts' }, {}, '/repo').agent).toBe('/repo/agents/mine.ts')
    expect(resolveOptions({}, { AWB_AGENT: 'agent.mjs' }, '/repo').agent).toBe('/repo/agent.mjs')
    expect(resolveOptions({}, { AWB_AGENT: 'openai:gpt-4.1' }, '/repo').agent).toBe('openai:gpt-4.1')
    expect(resolveOptions({}, {}, '/repo').agent).toBe('replay')
  })
})
