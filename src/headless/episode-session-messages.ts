// The messages between the Node episode session and its persistent page (zod schemas); isomorphic, no I/O.
import * as z from 'zod'

/** The name of the persistent page's entry object on `window`. */
export const EPISODE_SESSION_GLOBAL = '__awbEpisodeSession'

/** Node → page: open this episode (base64 archive) once; later requests act on it. */
export const EpisodeSessionOpenSchema = z.strictObject({ episode: z.string(), source: z.string() })
export type EpisodeSessionOpen = z.infer<typeof EpisodeSessionOpenSchema>

/** One registered tool as the page lists it (the WebMCP registration object without `execute`). */
export const EpisodeSessionToolSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z.strictObject({ readOnlyHint: z.boolean() }),
})

/** Page → Node after open: the registered tools, the renderer and the WebMCP API used. */
export const EpisodeSessionOpenedSchema = z.strictObject({
  tools: z.array(EpisodeSessionToolSchema),
  renderer: z.string(),
  webmcp: z.enum(['document', 'navigator', 'polyfill', 'given']),
})
export type EpisodeSessionOpened = z.infer<typeof EpisodeSessionOpenedSchema>

/** Node → page: one agent call through the registered tool's `execute`. */
export const EpisodeSessionCallSchema = z.strictObject({ name: z.string().min(1), input: z.record(z.string(), z.unknown()) })
export type EpisodeSessionCall = z.infer<typeof EpisodeSessionCallSchema>
