// Finds the page's WebMCP API (document.modelContext, else navigator.modelContext, else the polyfill); no tools here.
import { initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill'
import * as z from 'zod'
import { WebMcpError } from './errors.ts'

/** What a tool registration hands the browser (environment.md §4.2, §5.1). */
export interface WebMcpTool {
  name: string
  description: string
  inputSchema: Record<string, unknown>
  annotations: { readOnlyHint: boolean }
  /** Receives the parsed input object (and optionally a cancellation signal); always resolves to a JSON string. */
  execute(input: unknown, context?: { signal?: AbortSignal }): Promise<string>
}

/**
 * The part of the WebMCP `ModelContext` we rely on: `registerTool(tool, {signal})` (may return a promise;
 * aborting the signal unregisters the tool) and, for diagnostics only, `getTools()`. Native Chrome,
 * `@mcp-b/webmcp-polyfill` and a test stub (§5.3) all fit.
 */
export interface ModelContextLike {
  registerTool(tool: WebMcpTool, options: { signal: AbortSignal }): unknown
  getTools?(): unknown
}

/** Where the API came from: the standard getter, the deprecated navigator alias, or our installed polyfill. */
export type ModelContextSource = 'document' | 'navigator' | 'polyfill'

export interface ResolvedModelContext {
  context: ModelContextLike
  source: ModelContextSource
}

/** One tool as the browser lists it; a format owned by others, so unknown keys are kept. */
export const ListedToolSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.unknown().optional(),
  annotations: z.looseObject({ readOnlyHint: z.boolean().optional() }).optional(),
})
export type ListedTool = z.infer<typeof ListedToolSchema>

/**
 * `document.modelContext ?? navigator.modelContext`; when the browser has neither, installs
 * `@mcp-b/webmcp-polyfill` on `document.modelContext` and returns it. Throws `WebMcpError`
 * (`WEBMCP_UNAVAILABLE`) when no usable API results (e.g. an insecure context, where the polyfill declines).
 */
export function resolveModelContext(): ResolvedModelContext {
  const fromDocument = readContext(document, 'modelContext')
  if (fromDocument !== undefined) return { context: fromDocument, source: 'document' }
  const fromNavigator = readContext(navigator, 'modelContext')
  if (fromNavigator !== undefined) return { context: fromNavigator, source: 'navigator' }
  initializeWebMCPPolyfill()
  const installed = readContext(document, 'modelContext')
  if (installed === undefined) {
    throw new WebMcpError('WEBMCP_UNAVAILABLE', `Browser API unavailable. Enable WebMCP for testing and restart. (no document.modelContext or navigator.modelContext, and the WebMCP polyfill did not install${globalThis.isSecureContext === false ? ': the page is not a secure context; serve it from https or localhost' : ''})`)
  }
  return { context: installed, source: 'polyfill' }
}

/**
 * The tools the backing API lists (`getTools()`), checked against `ListedToolSchema`; undefined when the
 * API offers no listing. Diagnostics only: registries list their own tools without the browser.
 */
export async function listContextTools(context: ModelContextLike): Promise<ListedTool[] | undefined> {
  if (typeof context.getTools !== 'function') return undefined
  return z.array(ListedToolSchema).parse(await context.getTools())
}

function readContext(owner: object, key: string): ModelContextLike | undefined {
  const value: unknown = Reflect.get(owner, key)
  return isModelContext(value) ? value : undefined
}

function isModelContext(value: unknown): value is ModelContextLike {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'registerTool') === 'function'
}
