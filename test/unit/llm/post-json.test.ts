import { afterEach, describe, expect, it } from 'vitest'
import { backoffMs, LLM_MAX_RETRIES, LLM_RETRY_MAX_DELAY_MS, LlmError, postJson, type PostJsonOptions } from '../../../src/llm/index.ts'
import { startFakeModelServer, type FakeModelServer } from '../../helpers/fake-model-server.ts'

type Step = Response | Error

/** A fetch answering `steps` in order and recording each call. */
function scriptedFetch(steps: Step[]) {
  const calls: { url: string; init: RequestInit | undefined }[] = []
  const fetchFn = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init })
    const step = steps.shift()
    if (step === undefined) throw new Error('no scripted answer left')
    if (step instanceof Error) throw step
    return step
  }) as typeof fetch
  return { fetchFn, calls }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

function options(fetchFn: typeof fetch, sleeps: number[], extra: Partial<PostJsonOptions> = {}): PostJsonOptions {
  return {
    url: 'http://model.test/v1/chat/completions', headers: { authorization: 'Bearer secret-key' }, body: { model: 'm', x: [1] },
    label: 'test provider', secrets: ['secret-key'], retryBaseDelayMs: 100, fetch: fetchFn,
    sleep: async (ms) => { sleeps.push(ms) }, ...extra,
  }
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.catch((e: unknown) => e)
  expect(error).toBeInstanceOf(LlmError)
  return error as LlmError
}

describe('postJson', () => {
  it('POSTs the JSON body with the headers and resolves to the parsed answer', async () => {
    const { fetchFn, calls } = scriptedFetch([json(200, { ok: true })])
    await expect(postJson(options(fetchFn, []))).resolves.toEqual({ ok: true })
    expect(calls[0]!.init).toMatchObject({ method: 'POST', body: '{"model":"m","x":[1]}', headers: { 'content-type': 'application/json', authorization: 'Bearer secret-key' } })
  })

  it('retries 429 after the provider’s retry-after, then succeeds', async () => {
    const sleeps: number[] = []
    const { fetchFn, calls } = scriptedFetch([json(429, { error: { message: 'rate limited' } }, { 'retry-after': '2' }), json(200, { ok: 1 })])
    await expect(postJson(options(fetchFn, sleeps))).resolves.toEqual({ ok: 1 })
    expect(calls).toHaveLength(2)
    expect(sleeps).toEqual([2000])
  })

  it('backs off exponentially on 5xx and gives up after LLM_MAX_RETRIES retries with the last status and message', async () => {
    const sleeps: number[] = []
    const answers = Array.from({ length: LLM_MAX_RETRIES + 1 }, () => json(503, { error: { message: 'overloaded' } }))
    const { fetchFn, calls } = scriptedFetch(answers)
    const error = await failure(postJson(options(fetchFn, sleeps)))
    expect(calls).toHaveLength(LLM_MAX_RETRIES + 1)
    expect(sleeps).toEqual([100, 200, 400])
    expect(error.code).toBe('LLM_HTTP_ERROR')
    expect(error.status).toBe(503)
    expect(error.message).toBe('test provider answered HTTP 503: overloaded')
  })

  it('does not retry a 429 that reports an exhausted quota, and keeps the provider’s quota text', async () => {
    const { fetchFn, calls } = scriptedFetch([json(429, { error: { message: 'You exceeded your current quota, please check your plan.', type: 'insufficient_quota', code: 'insufficient_quota' } })])
    const error = await failure(postJson(options(fetchFn, [])))
    expect(calls).toHaveLength(1)
    expect(error.status).toBe(429)
    expect(error.message).toContain('You exceeded your current quota')
  })

  it('does not retry a 400, and says what the provider said', async () => {
    const { fetchFn, calls } = scriptedFetch([json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } })])
    const error = await failure(postJson(options(fetchFn, [])))
    expect(calls).toHaveLength(1)
    expect(error.message).toContain('HTTP 400: max_tokens: too large')
  })

  it('hints at the key on 401/403 and redacts the key from the provider’s text', async () => {
    const { fetchFn } = scriptedFetch([new Response('bad key secret-key', { status: 401 })])
    const error = await failure(postJson(options(fetchFn, [])))
    expect(error.message).toBe('test provider answered HTTP 401 (check the API key variable): bad key [redacted]')
  })

  it('retries network failures and then reports LLM_NETWORK with the URL', async () => {
    const sleeps: number[] = []
    const { fetchFn, calls } = scriptedFetch([new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed')])
    const error = await failure(postJson(options(fetchFn, sleeps)))
    expect(calls).toHaveLength(4)
    expect(error.code).toBe('LLM_NETWORK')
    expect(error.message).toContain('could not be reached at http://model.test/v1/chat/completions')
  })

  it('reports a 200 with a non-JSON body as LLM_INVALID_RESPONSE, without retrying', async () => {
    const { fetchFn, calls } = scriptedFetch([new Response('<html>gateway</html>', { status: 200 })])
    const error = await failure(postJson(options(fetchFn, [])))
    expect(error.code).toBe('LLM_INVALID_RESPONSE')
    expect(error.message).toContain('<html>gateway</html>')
    expect(calls).toHaveLength(1)
  })

  it('caps backoff and retry-after at LLM_RETRY_MAX_DELAY_MS', () => {
    expect(backoffMs(0, undefined, 1000)).toBe(1000)
    expect(backoffMs(2, undefined, 1000)).toBe(4000)
    expect(backoffMs(10, undefined, 1000)).toBe(LLM_RETRY_MAX_DELAY_MS)
    expect(backoffMs(0, 3_600_000, 1000)).toBe(LLM_RETRY_MAX_DELAY_MS)
    expect(backoffMs(0, -5, 1000)).toBe(0)
  })
})

describe('postJson over HTTP', () => {
  let server: FakeModelServer | undefined
  afterEach(async () => { await server?.close() })

  it('gives up on a request that outlives the timeout with LLM_TIMEOUT, without retrying', async () => {
    let calls = 0
    // A server that never answers: the fetch settles only when its signal aborts.
    const hangingFetch = ((_url: string | URL | Request, init?: RequestInit) => {
      calls++
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true }))
    }) as typeof fetch
    const error = await failure(postJson({ url: 'http://model.test/x', headers: {}, body: { model: 'm' }, label: 'p', secrets: [], timeoutMs: 20, fetch: hangingFetch }))
    expect(error.code).toBe('LLM_TIMEOUT')
    expect(error.message).toContain('within 0.02 s')
    expect(calls).toBe(1)
  })

  it('stops with LLM_ABORTED when the caller aborts, without retrying', async () => {
    server = await startFakeModelServer()
    const controller = new AbortController()
    server.script('openai', [{ hang: true, onReceive: () => controller.abort() }])
    const error = await failure(postJson({ url: `${server.openaiBaseUrl}/chat/completions`, headers: {}, body: { model: 'm' }, label: 'p', secrets: [], signal: controller.signal }))
    expect(error.code).toBe('LLM_ABORTED')
    expect(server.requests).toHaveLength(1)
  })
})
