// The benchmark surface (runner.md §4.4, environment.md §6): list_pages, list_webmcp_tools, execute_webmcp_tool
// (names, inputs and wire output mirror chrome-devtools-mcp 1.8.0 with page-id routing: text content only, no
// structuredContent, the same section layout and `Error: …` lines) and read_manual_page; each tool declared once.
// Served over a ToolRelay; no transport here.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { bytesToBase64 } from '../shared/base64.ts'
import { promoteImages } from './image-promotion.ts'
import { errorResult, type ToolCallGate } from './tool-call-gate.ts'
import type { RelayTool, ToolRelay } from './tool-relay.ts'

/** The four tools of the benchmark surface, in the order they are listed. */
export const BENCHMARK_TOOL_NAMES = ['list_pages', 'list_webmcp_tools', 'execute_webmcp_tool', 'read_manual_page'] as const

const PageIdSchema = z.number().describe('Targets a specific page by ID.')

/** Declarations (description + zod shape) of the benchmark tools; the SDK derives their JSON Schemas. */
const TOOLS = {
  list_pages: {
    description: 'Get a list of pages open in the browser.',
    inputSchema: {},
    annotations: { readOnlyHint: true },
  },
  list_webmcp_tools: {
    description: 'Lists all WebMCP tools the page exposes.',
    inputSchema: { pageId: PageIdSchema },
    annotations: { readOnlyHint: true },
  },
  execute_webmcp_tool: {
    description: 'Executes a WebMCP tool exposed by the page.',
    inputSchema: {
      pageId: PageIdSchema,
      toolName: z.string().describe('The name of the WebMCP tool to execute'),
      input: z.string().optional().describe('The JSON-stringified parameters to pass to the WebMCP tool'),
    },
    annotations: { readOnlyHint: false },
  },
  read_manual_page: {
    description: 'Returns one reference page image of this task, one-based, in page order (the images attached to the first message).',
    inputSchema: { page: z.number().int().min(1).describe('One-based page number') },
    annotations: { readOnlyHint: true },
  },
} satisfies Record<(typeof BENCHMARK_TOOL_NAMES)[number], { description: string, inputSchema: z.ZodRawShape, annotations: { readOnlyHint: boolean } }>

type BenchmarkToolName = (typeof BENCHMARK_TOOL_NAMES)[number]

/** Input objects of the tools, built once from their shapes (unknown keys pass, as in chrome-devtools-mcp). */
const INPUTS = {
  list_pages: z.looseObject(TOOLS.list_pages.inputSchema),
  list_webmcp_tools: z.looseObject(TOOLS.list_webmcp_tools.inputSchema),
  execute_webmcp_tool: z.looseObject(TOOLS.execute_webmcp_tool.inputSchema),
  read_manual_page: z.looseObject(TOOLS.read_manual_page.inputSchema),
}

/** The tools as `tools/list` shows them: JSON Schemas generated from the zod shapes. */
const LISTED: Tool[] = BENCHMARK_TOOL_NAMES.map(name => ({
  name,
  description: TOOLS[name].description,
  inputSchema: { ...inputJsonSchema(INPUTS[name]), type: 'object' },
  annotations: TOOLS[name].annotations,
}))

function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, additionalProperties: _open, ...json } = z.toJSONSchema(schema, { io: 'input' })
  return json
}

/**
 * A protocol server with the four benchmark tools. Every call, allowed or not, goes through `gate` (serialised
 * and recorded). Any other name answers `Tool is not allowed` (runner.md §4.4); invalid arguments answer the
 * SDK's `Input validation error` text, both as `isError` results the agent can read.
 */
export function createBenchmarkServer(relay: ToolRelay, gate: ToolCallGate, info: { name: string, version: string }): Server {
  const server = new Server(info, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => {
    gate.noteListing()
    return { tools: LISTED }
  })
  server.setRequestHandler(CallToolRequestSchema, request => {
    const { name } = request.params
    const args = request.params.arguments ?? {}
    return gate.run(name, args, signal => {
      if (!isBenchmarkTool(name)) return Promise.resolve(errorResult(`Tool is not allowed: ${name}. The tools are ${BENCHMARK_TOOL_NAMES.join(', ')}.`))
      return callBenchmarkTool(relay, name, args, signal)
    })
  })
  return server
}

function isBenchmarkTool(name: string): name is BenchmarkToolName {
  return (BENCHMARK_TOOL_NAMES as readonly string[]).includes(name)
}

async function callBenchmarkTool(relay: ToolRelay, name: BenchmarkToolName, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
  switch (name) {
    case 'list_pages':
      return listPages(relay)
    case 'list_webmcp_tools': {
      const parsed = INPUTS.list_webmcp_tools.safeParse(args)
      if (!parsed.success) return invalid(name, parsed.error)
      return checkPage(relay, parsed.data.pageId) ?? textResult(webMcpToolsSection(await relay.listTools()))
    }
    case 'execute_webmcp_tool': {
      const parsed = INPUTS.execute_webmcp_tool.safeParse(args)
      return parsed.success ? executeTool(relay, parsed.data, signal) : invalid(name, parsed.error)
    }
    case 'read_manual_page': {
      const parsed = INPUTS.read_manual_page.safeParse(args)
      return parsed.success ? readManualPage(relay, parsed.data.page) : invalid(name, parsed.error)
    }
    default: {
      const never: never = name
      throw new TypeError(`unhandled benchmark tool ${String(never)}`)
    }
  }
}

/** The SDK's wording for arguments that fail the schema (what McpServer answers), naming the tool and the issue. */
function invalid(name: string, error: z.ZodError): CallToolResult {
  return errorResult(`MCP error -32602: Input validation error: Invalid arguments for tool ${name}: ${z.prettifyError(error)}`)
}

/**
 * chrome-devtools-mcp's `list_pages` text: a `## Pages` section, one `<id>: <title> (<url>) [selected]` line per page.
 * It lists no WebMCP tools (that takes a page-scoped call, list_webmcp_tools).
 */
function listPages(relay: ToolRelay): CallToolResult {
  const { page } = relay
  return textResult(['## Pages', `${page.id}: ${page.title} (${page.url}) [selected]`].join('\n'))
}

/**
 * chrome-devtools-mcp's `## WebMCP tools` section: one `name=…, description=…, inputSchema=…, annotations=…` line
 * per tool. `annotations` is `JSON.stringify`'d as there, so a tool without any shows `annotations=undefined`.
 */
function webMcpToolsSection(tools: readonly RelayTool[]): string {
  const lines = tools.length === 0
    ? ['No WebMCP tools available.']
    : tools.map(tool => `name="${tool.name}", description="${tool.description}", inputSchema=${JSON.stringify(tool.inputSchema)}, annotations=${String(JSON.stringify(tool.annotations))}`)
  return ['## WebMCP tools', ...lines].join('\n')
}

/** A plain text answer, the only content chrome-devtools-mcp sends (its structuredContent is off by default). */
function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] }
}

/** A failure inside a chrome-devtools-mcp tool handler: its message on an `Error: ` line, marked `isError`. */
function handlerError(message: string): CallToolResult {
  return errorResult(`Error: ${message}`)
}

/** The page-id boundary: only the loaded environment page may be targeted (chrome-devtools-mcp's wording). */
function checkPage(relay: ToolRelay, pageId: number): CallToolResult | undefined {
  if (pageId === relay.page.id) return undefined
  return handlerError('No page found')
}

async function executeTool(relay: ToolRelay, args: { pageId: number, toolName: string, input?: string | undefined }, signal: AbortSignal): Promise<CallToolResult> {
  const wrongPage = checkPage(relay, args.pageId)
  if (wrongPage !== undefined) return wrongPage
  const input = parseInput(args.input)
  if (typeof input === 'string') return handlerError(input)
  const tools = await relay.listTools()
  if (!tools.some(tool => tool.name === args.toolName)) return handlerError(`Tool ${args.toolName} not found`)
  let answer: { status: 'Completed' | 'Error', output: string | null, errorText: string | null }
  let images: CallToolResult['content'] = []
  try {
    const promoted = promoteImages(await relay.callTool(args.toolName, input, { signal }))
    answer = { status: 'Completed', output: promoted.text, errorText: null }
    images = promoted.images
  } catch (error) {
    answer = { status: 'Error', output: null, errorText: error instanceof Error ? error.message : String(error) }
  }
  // chrome-devtools-mcp appends exactly this line (pretty-printed with 2 spaces); images follow the text.
  return { content: [{ type: 'text', text: JSON.stringify(answer, null, 2) }, ...images] }
}

/** The parsed `input` object, or the error text chrome-devtools-mcp gives for input that is not a JSON object. */
function parseInput(input: string | undefined): Record<string, unknown> | string {
  if (input === undefined || input === '') return {}
  try {
    const value: unknown = JSON.parse(input)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
    return 'Failed to parse input as JSON: Parsed input is not an object'
  } catch (error) {
    return `Failed to parse input as JSON: ${error instanceof Error ? error.message : String(error)}`
  }
}

function readManualPage(relay: ToolRelay, page: number): CallToolResult {
  const pages = relay.referencePages
  if (pages.length === 0) return errorResult('This task has no reference pages, so read_manual_page has nothing to return.')
  const found = pages[page - 1]
  if (found === undefined) return errorResult(`Page ${page} is out of range: this task has ${pages.length} reference page${pages.length === 1 ? '' : 's'} (1–${pages.length}).`)
  return {
    content: [
      { type: 'text', text: `Reference page ${page} of ${pages.length}.` },
      { type: 'image', data: bytesToBase64(found.bytes), mimeType: found.mimeType },
    ],
  }
}
