import { describe, expect, it } from 'vitest'
import { API_AGENT_MAX_OUTPUT_TOKENS, API_AGENT_MAX_TURNS, ApiAgentError, isApiAgentName, parseApiAgentName } from '../../../../src/agents/api/index.ts'

describe('parseApiAgentName', () => {
  it('splits provider and model at the first colon, with default limits', () => {
    expect(parseApiAgentName('openai:gpt-4.1')).toEqual({ provider: 'openai', model: 'gpt-4.1', maxTurns: API_AGENT_MAX_TURNS, maxOutputTokens: API_AGENT_MAX_OUTPUT_TOKENS })
    expect(parseApiAgentName('openai:llama3.1:8b').model).toBe('llama3.1:8b')
    expect(parseApiAgentName('anthropic:claude-x', { maxTurns: 3, maxOutputTokens: 100 })).toEqual({ provider: 'anthropic', model: 'claude-x', maxTurns: 3, maxOutputTokens: 100 })
  })

  it('rejects other names and bad limits with API_AGENT_BAD_SPEC', () => {
    for (const name of ['codex', 'gemini:pro', 'openai:', 'openai: ', 'OpenAI:gpt']) {
      expect(() => parseApiAgentName(name)).toThrow(ApiAgentError)
    }
    expect(() => parseApiAgentName('codex')).toThrow(/use openai:<model>/)
    expect(() => parseApiAgentName('openai:m', { maxTurns: 0 })).toThrow(/maxTurns/)
    expect(() => parseApiAgentName('openai:m', { maxOutputTokens: 1.5 })).toThrow(/maxOutputTokens/)
  })

  it('isApiAgentName recognises both prefixes', () => {
    expect(isApiAgentName('openai:x')).toBe(true)
    expect(isApiAgentName('anthropic:x')).toBe(true)
    expect(isApiAgentName('claude')).toBe(false)
  })
})
