// Plugin options for the agents this issue added: effort, Codex overrides, and `{command}` external agents, each
// also settable by its AWB_* variable (which wins).
import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../../../plugin/options.ts'

describe('agent options', () => {
  it('effort and codexConfig come from options or AWB_EFFORT / AWB_CODEX_CONFIG (the variable wins)', () => {
    expect(resolveOptions({ effort: 'low', codexConfig: ['model_provider="a"'] }, {}, '/p')).toMatchObject({ effort: 'low', codexConfig: ['model_provider="a"'] })
    const fromEnv = resolveOptions({ effort: 'low' }, { AWB_EFFORT: 'high', AWB_CODEX_CONFIG: '["openai_base_url=\\"http://127.0.0.1:1/v1\\""]' }, '/p')
    expect(fromEnv).toMatchObject({ effort: 'high', codexConfig: ['openai_base_url="http://127.0.0.1:1/v1"'] })
    expect(resolveOptions({}, {}, '/p')).toMatchObject({ effort: undefined, codexConfig: [] })
    expect(() => resolveOptions({}, { AWB_CODEX_CONFIG: 'model_provider=x' }, '/p')).toThrow(/AWB_CODEX_CONFIG must be JSON/)
  })

  it('agent: {command} is the external agent; AWB_AGENT may be that JSON object; a name stays a name', () => {
    expect(resolveOptions({ agent: { command: ['python3', 'agent.py'] } }, {}, '/p')).toMatchObject({ agent: 'external', externalAgent: ['python3', 'agent.py'] })
    expect(resolveOptions({}, { AWB_AGENT: '{"command": ["./agent"]}' }, '/p')).toMatchObject({ agent: 'external', externalAgent: ['./agent'] })
    expect(resolveOptions({ agent: { command: ['x'] } }, { AWB_AGENT: 'codex' }, '/p')).toMatchObject({ agent: 'codex', externalAgent: undefined })
    expect(() => resolveOptions({ agent: { command: [] } }, {}, '/p')).toThrow(/agent/)
    expect(() => resolveOptions({}, { AWB_AGENT: '{"cmd": ["x"]}' }, '/p')).toThrow(/agent/)
  })
})
