import { describe, expect, it } from 'vitest'
import { LlmError, modelRequest } from '../../../src/llm/index.ts'

function recordingFetch(answer: unknown) {
  const calls: { url: string; init: RequestInit | undefined }[] = []
  const fetchFn = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init })
    return new Response(JSON.stringify(answer), { status: 200 })
  }) as typeof fetch
  return { fetchFn, calls }
}

describe('modelRequest', () => {
  it('posts the body to the provider’s endpoint with its headers and returns the JSON', async () => {
    const { fetchFn, calls } = recordingFetch({ id: 'x' })
    const env = { ANTHROPIC_API_KEY: 'ant-key', ANTHROPIC_BASE_URL: 'http://local.test' }
    await expect(modelRequest({ provider: 'anthropic', body: { model: 'claude-x', max_tokens: 5, messages: [] } }, { env, fetch: fetchFn })).resolves.toEqual({ id: 'x' })
    expect(calls).toHaveLength(1)
    expect(calls[0]!.url).toBe('http://local.test/v1/messages')
    expect(calls[0]!.init?.headers).toMatchObject({ 'x-api-key': 'ant-key', 'anthropic-version': '2023-06-01' })
    expect(JSON.parse(String(calls[0]!.init?.body))).toEqual({ model: 'claude-x', max_tokens: 5, messages: [] })
  })

  it('refuses a request that is not {provider, body: {model}} before any HTTP', async () => {
    const { fetchFn, calls } = recordingFetch({})
    for (const bad of [{ provider: 'gemini', body: { model: 'm' } }, { provider: 'openai', body: {} }, { provider: 'openai', body: { model: 'm' }, extra: 1 }, 'text']) {
      const error = await modelRequest(bad, { env: { OPENAI_API_KEY: 'k' }, fetch: fetchFn }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LlmError)
      expect((error as LlmError).code).toBe('LLM_BAD_REQUEST')
    }
    expect(calls).toHaveLength(0)
  })

  it('fails with LLM_MISSING_KEY naming the variable, before any HTTP', async () => {
    const { fetchFn, calls } = recordingFetch({})
    const error = await modelRequest({ provider: 'openai', body: { model: 'm' } }, { env: {}, fetch: fetchFn }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'LLM_MISSING_KEY' })
    expect((error as Error).message).toContain('OPENAI_API_KEY')
    expect(calls).toHaveLength(0)
  })
})
