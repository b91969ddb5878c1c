import { describe, expect, it } from 'vitest'
import { ANTHROPIC_VERSION, LlmError, resolveProviderEndpoint } from '../../../src/llm/index.ts'

describe('resolveProviderEndpoint', () => {
  it('uses the public endpoints by default with each API’s auth headers', () => {
    expect(resolveProviderEndpoint('openai', { OPENAI_API_KEY: 'k1' })).toEqual({
      url: 'https://api.openai.com/v1/chat/completions', headers: { authorization: 'Bearer k1' }, apiKey: 'k1',
    })
    expect(resolveProviderEndpoint('anthropic', { ANTHROPIC_API_KEY: 'k2' })).toEqual({
      url: 'https://api.anthropic.com/v1/messages', headers: { 'x-api-key': 'k2', 'anthropic-version': ANTHROPIC_VERSION }, apiKey: 'k2',
    })
  })

  it('takes the base URL from OPENAI_BASE_URL / ANTHROPIC_BASE_URL (trailing slashes dropped) so local servers work', () => {
    expect(resolveProviderEndpoint('openai', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1/' }).url).toBe('http://127.0.0.1:8000/v1/chat/completions')
    expect(resolveProviderEndpoint('anthropic', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://proxy.local' }).url).toBe('http://proxy.local/v1/messages')
    expect(resolveProviderEndpoint('openai', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: '  ' }).url).toBe('https://api.openai.com/v1/chat/completions')
  })

  it('names the missing key variable (an empty value counts as missing) and never another provider’s key', () => {
    const missing = () => resolveProviderEndpoint('openai', { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: 'secret-anthropic' })
    expect(missing).toThrow(LlmError)
    expect(missing).toThrow(/OPENAI_API_KEY is not set/)
    try {
      missing()
    } catch (error) {
      expect((error as LlmError).code).toBe('LLM_MISSING_KEY')
      expect((error as Error).message).not.toContain('secret-anthropic')
    }
    expect(() => resolveProviderEndpoint('anthropic', {})).toThrow(/ANTHROPIC_API_KEY is not set/)
  })

  it('rejects a base URL that is not http(s), naming the variable', () => {
    expect(() => resolveProviderEndpoint('openai', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'localhost:8000' })).toThrow(/OPENAI_BASE_URL="localhost:8000" must be an http/)
    expect(() => resolveProviderEndpoint('anthropic', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'not a url' })).toThrow(/ANTHROPIC_BASE_URL="not a url" is not a URL/)
  })
})
