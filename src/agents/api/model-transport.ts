// The page↔Node contract of one model request (JSON in, JSON out; keys stay in Node); no HTTP here.
import * as z from 'zod'

/** The two wire dialects: OpenAI-compatible Chat Completions and Anthropic Messages. */
export const MODEL_PROVIDERS = ['openai', 'anthropic'] as const
export type ModelProvider = (typeof MODEL_PROVIDERS)[number]

/**
 * One request: the provider and the exact JSON body to POST (`model` is required by both APIs). The body is
 * owned by the provider's API, so it is a loose object; Node adds the URL, the key and the headers.
 */
export const ModelRequestSchema = z.strictObject({
  provider: z.enum(MODEL_PROVIDERS),
  body: z.looseObject({ model: z.string().min(1) }),
})
export type ModelRequest = z.infer<typeof ModelRequestSchema>

export interface ModelSendOptions {
  /** Aborted at the time limit; a transport that cannot forward it is still raced against it by the agent. */
  signal?: AbortSignal
}

/**
 * Sends one model request and resolves to the provider's response JSON (unparsed: the agent validates it).
 * Rejects on transport, HTTP or key failures with an error whose message the run records.
 */
export interface ModelTransport {
  send(request: ModelRequest, options?: ModelSendOptions): Promise<unknown>
}
