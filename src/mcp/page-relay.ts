// Node only: a ToolRelay over a browser page reached through Playwright (`Page` or `Frame`, e.g. a Vitest browser
// command's `context.frame()`), calling the tools the page exposed with `exposeToolRelay`. No MCP here.
import * as z from 'zod'
import type { ReferencePage } from '../shared/agent-io.ts'
import { McpError } from './errors.ts'
import { PAGE_RELAY_GLOBAL } from './page/index.ts'
import type { RelayPage, RelayTool, ToolRelay } from './tool-relay.ts'

/** What the relay needs of a Playwright `Page` or `Frame`. */
export interface PageEvaluator {
  evaluate<R, A>(pageFunction: (arg: A) => R | Promise<R>, arg: A): Promise<R>
}

export interface PageRelayOptions {
  target: PageEvaluator
  /** How `list_pages` shows the page (default id 1 with the page's own URL is the caller's choice). */
  page: RelayPage
  referencePages?: readonly ReferencePage[] | undefined
}

// The page is not ours to trust blindly: its answers are checked like any input.
const ListedToolsSchema = z.array(z.looseObject({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z.looseObject({ readOnlyHint: z.boolean().optional() }).optional(),
}))

/**
 * A relay whose calls run `globalThis.__awbToolRelay` in the page. A page without the global, or one that
 * fails or closes, rejects with `McpError` (`MCP_PAGE_RELAY`), which the surfaces report as status `Error`.
 */
export function createPageRelay(options: PageRelayOptions): ToolRelay {
  const { target } = options
  return {
    page: options.page,
    referencePages: options.referencePages ?? [],
    listTools: async () => {
      const raw = await evaluate(target, 'listTools', null)
      const parsed = ListedToolsSchema.safeParse(raw)
      if (!parsed.success) throw new McpError('MCP_PAGE_RELAY', `the page listed its tools in an unexpected shape: ${z.prettifyError(parsed.error)}`)
      return parsed.data.map((tool): RelayTool => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations }))
    },
    callTool: async (name, input) => {
      const answer = await evaluate(target, 'invokeTool', { name, input })
      if (typeof answer !== 'string') throw new McpError('MCP_PAGE_RELAY', `the page answered ${name} with ${typeof answer} instead of the tool's JSON string`)
      return answer
    },
  }
}

async function evaluate(target: PageEvaluator, method: 'listTools' | 'invokeTool', body: unknown): Promise<unknown> {
  try {
    return await target.evaluate(([global, key, value]) => {
      const relay: unknown = Reflect.get(globalThis, global)
      if (typeof relay !== 'object' || relay === null) throw new Error(`the page exposes no ${global}; call exposeToolRelay(registry) before the agent starts`)
      if (key === 'listTools') return (relay as { listTools(): unknown }).listTools()
      const { name, input } = value as { name: string, input: unknown }
      return (relay as { invokeTool(name: string, input: unknown): Promise<unknown> }).invokeTool(name, input)
    }, [PAGE_RELAY_GLOBAL, method, body] as const)
  } catch (cause) {
    throw new McpError('MCP_PAGE_RELAY', `the environment page failed during ${method}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}
