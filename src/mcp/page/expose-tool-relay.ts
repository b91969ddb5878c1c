// Page side of the browser relay: puts the page's registered tools on a global so Node (Playwright
// `frame.evaluate`) can list and invoke them for an MCP surface. Page code: no `node:` imports, no MCP.

/** The global the Node side (`createPageRelay`) calls into. */
export const PAGE_RELAY_GLOBAL = '__awbToolRelay'

/** A registered tool as the page lists it (the WebMCP registration object without `execute`). */
export interface ExposedTool {
  name: string
  description: string
  inputSchema: unknown
  annotations?: { readOnlyHint?: boolean } | undefined
}

/** What the page exposes: `WebMcpToolRegistry` satisfies it (`listTools`, `invokeTool` through `execute`). */
export interface ExposedToolSource {
  listTools(): readonly ExposedTool[]
  invokeTool(name: string, input: unknown): Promise<string>
}

/**
 * Exposes `source` on `globalThis[PAGE_RELAY_GLOBAL]` until the returned function is called. Calls go
 * through the source as they would from WebMCP; nothing else of the page is reachable this way.
 */
export function exposeToolRelay(source: ExposedToolSource): () => void {
  const target = {
    listTools: () => source.listTools().map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations })),
    invokeTool: (name: string, input: unknown) => source.invokeTool(name, input),
  }
  Reflect.set(globalThis, PAGE_RELAY_GLOBAL, target)
  return () => {
    if (Reflect.get(globalThis, PAGE_RELAY_GLOBAL) === target) Reflect.deleteProperty(globalThis, PAGE_RELAY_GLOBAL)
  }
}
