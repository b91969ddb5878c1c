// POSTs JSON with a per-attempt timeout and bounded retries with backoff on 408/409/429/5xx and network failures.
import { LlmError } from './errors.ts'

/** Retries after the first attempt (so at most 4 requests). */
export const LLM_MAX_RETRIES = 3
/** First backoff; doubled per retry. */
export const LLM_RETRY_BASE_DELAY_MS = 1000
/** Longest single wait, also the cap on a provider's `retry-after`. */
export const LLM_RETRY_MAX_DELAY_MS = 30_000
/** Limit of one attempt, in milliseconds: long generations with images can take minutes. */
export const LLM_REQUEST_TIMEOUT_MS = 600_000

/** Statuses worth another attempt besides 5xx: request timeout, conflict, rate limit (as the providers' SDKs do). */
const RETRYABLE_STATUS = new Set([408, 409, 429])

export interface PostJsonOptions {
  url: string
  headers: Record<string, string>
  body: unknown
  /** Provider name for messages, e.g. `openai`. */
  label: string
  /** Substrings that must never appear in an error message (the API key). */
  secrets: readonly string[]
  timeoutMs?: number
  maxRetries?: number
  retryBaseDelayMs?: number
  signal?: AbortSignal | undefined
  fetch?: typeof fetch
  /** Waits between attempts (tests pass a recorder). */
  sleep?: (ms: number) => Promise<void>
}

/** Resolves to the parsed JSON of a 2xx answer; throws `LlmError` (HTTP status and the provider's own message). */
export async function postJson(options: PostJsonOptions): Promise<unknown> {
  const maxRetries = options.maxRetries ?? LLM_MAX_RETRIES
  const doFetch = options.fetch ?? fetch
  const sleep = options.sleep ?? defaultSleep
  const body = JSON.stringify(options.body)
  for (let attempt = 0; ; attempt++) {
    const failure = await attemptOnce(options, doFetch, body)
    if (failure.kind === 'ok') return failure.json
    if (!failure.isRetryable || attempt >= maxRetries || options.signal?.aborted === true) throw failure.error
    await sleep(backoffMs(attempt, failure.retryAfterMs, options.retryBaseDelayMs ?? LLM_RETRY_BASE_DELAY_MS))
  }
}

type Attempt =
  | { kind: 'ok'; json: unknown }
  | { kind: 'failed'; error: LlmError; isRetryable: boolean; retryAfterMs: number | undefined }

async function attemptOnce(options: PostJsonOptions, doFetch: typeof fetch, body: string): Promise<Attempt> {
  const timeoutMs = options.timeoutMs ?? LLM_REQUEST_TIMEOUT_MS
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal])
  let response: Response
  let text: string
  try {
    response = await doFetch(options.url, { method: 'POST', headers: { 'content-type': 'application/json', ...options.headers }, body, signal })
    text = await response.text()
  } catch (error) {
    if (options.signal?.aborted === true) return failed(new LlmError('LLM_ABORTED', `${options.label} request aborted by the caller`, { cause: error }), false)
    if (timeout.aborted) return failed(new LlmError('LLM_TIMEOUT', `${options.label} did not answer ${redactUrl(options.url)} within ${timeoutMs / 1000} s`, { cause: error }), false)
    const reason = redact(describe(error), options.secrets)
    return failed(new LlmError('LLM_NETWORK', `${options.label} could not be reached at ${redactUrl(options.url)}: ${reason}; check the base URL and the network`), true)
  }
  if (!response.ok) {
    const message = redact(providerMessage(text), options.secrets)
    // An exhausted quota also answers 429, but waiting does not refill it: fail at once so the run can stop.
    const isRetryable = (RETRYABLE_STATUS.has(response.status) || response.status >= 500) && !isQuotaError(text)
    const hint = response.status === 401 || response.status === 403 ? ' (check the API key variable)' : ''
    return failed(new LlmError('LLM_HTTP_ERROR', `${options.label} answered HTTP ${response.status}${hint}: ${message}`, { status: response.status }), isRetryable, retryAfterOf(response.headers))
  }
  try {
    return { kind: 'ok', json: JSON.parse(text) }
  } catch {
    return failed(new LlmError('LLM_INVALID_RESPONSE', `${options.label} answered HTTP ${response.status} with a body that is not JSON: ${redact(text.slice(0, 200), options.secrets)}`, { status: response.status }), false)
  }
}

function failed(error: LlmError, isRetryable: boolean, retryAfterMs?: number): Attempt {
  return { kind: 'failed', error, isRetryable, retryAfterMs }
}

/** Exponential backoff from `baseMs`, replaced by the provider's `retry-after` when it gives one; both capped. */
export function backoffMs(attempt: number, retryAfterMs: number | undefined, baseMs: number): number {
  const wanted = retryAfterMs ?? baseMs * 2 ** attempt
  return Math.min(Math.max(0, wanted), LLM_RETRY_MAX_DELAY_MS)
}

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfterOf(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN)
  if (Number.isFinite(ms)) return ms
  const value = headers.get('retry-after')
  if (value === null) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return seconds * 1000
  const date = Date.parse(value)
  return Number.isFinite(date) ? date - Date.now() : undefined
}

/** OpenAI marks an exhausted quota or billing limit with `error.code` / `error.type` `insufficient_quota`. */
function isQuotaError(text: string): boolean {
  try {
    const json: unknown = JSON.parse(text)
    if (json === null || typeof json !== 'object' || !('error' in json)) return false
    const error: unknown = json.error
    if (error === null || typeof error !== 'object') return false
    return ('code' in error && error.code === 'insufficient_quota') || ('type' in error && error.type === 'insufficient_quota')
  } catch {
    return false
  }
}

/** Both APIs put a readable text in `error.message` (`{error: {message}}`); otherwise the start of the body. */
function providerMessage(text: string): string {
  try {
    const json: unknown = JSON.parse(text)
    if (json !== null && typeof json === 'object' && 'error' in json) {
      const error: unknown = json.error
      if (typeof error === 'string') return error
      if (error !== null && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message
    }
  } catch {
    // Not JSON (a proxy's HTML page): fall through to the raw text.
  }
  return text.trim() === '' ? '(empty body)' : text.slice(0, 500)
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[redacted]')
  return out
}

/** Credentials in a URL (`https://user:key@host`) are dropped before it appears in a message. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.toString()
  } catch {
    return url
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause: unknown = error.cause
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms))
}
