// The messages between the Node headless driver and its page (zod schemas; the base64 helpers re-exported); isomorphic, no I/O.
import * as z from 'zod'

/** One call to run: `name` and `arguments` as in `awb env run` calls files; `actor` defaults to `agent`. */
export const HeadlessCallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
  actor: z.enum(['agent', 'human']).optional(),
})
export type HeadlessCall = z.infer<typeof HeadlessCallSchema>

/** Node → page: the episode archive (base64) and the calls to run in order. */
export const HeadlessRunRequestSchema = z.strictObject({
  episode: z.string(),
  source: z.string(),
  calls: z.array(HeadlessCallSchema),
})
export type HeadlessRunRequest = z.infer<typeof HeadlessRunRequestSchema>

/** How a call reached the runtime: the registered WebMCP tool's `execute`, or `callTool` directly. */
export const CALL_ROUTES = ['webmcp', 'runtime'] as const

/** One answered call. `ms` is wall time in the page (`performance.now()`), for benchmarks only. */
export const HeadlessCallOutputSchema = z.strictObject({
  name: z.string(),
  output: z.string(),
  via: z.enum(CALL_ROUTES),
  ms: z.number(),
})
export type HeadlessCallOutput = z.infer<typeof HeadlessCallOutputSchema>

/** Page → Node: every call's JSON-string answer, the exported episode (base64) and what rendered it. */
export const HeadlessRunResponseSchema = z.strictObject({
  outputs: z.array(HeadlessCallOutputSchema),
  episode: z.string(),
  renderer: z.string(),
  /** Which WebMCP API the page registered on (`given` = an API the page passed in itself). */
  webmcp: z.enum(['document', 'navigator', 'polyfill', 'given']),
})
export type HeadlessRunResponse = z.infer<typeof HeadlessRunResponseSchema>

/** The name of the page's entry object on `window`; Node waits for it, then calls `run`. */
export const HEADLESS_PAGE_GLOBAL = '__awbHeadless'

export { base64ToBytes, bytesToBase64 } from '../shared/base64.ts'
