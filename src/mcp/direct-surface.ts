// The direct surface: the page's own tools served as MCP tools under their own names, with the JSON Schemas the
// runtime registered (no second declaration); images promoted as on the benchmark surface. No transport here.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { promoteImages } from './image-promotion.ts'
import { errorResult, type ToolCallGate } from './tool-call-gate.ts'
import type { ToolRelay } from './tool-relay.ts'

/**
 * A low-level `Server` whose tool list is the relay's, verbatim. Arguments are not re-validated here: the
 * runtime validates them (environment.md §4.3) and answers `{error, code}`, which becomes an `isError` result.
 */
export function createDirectServer(relay: ToolRelay, gate: ToolCallGate, info: { name: string, version: string }): Server {
  const server = new Server(info, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    gate.noteListing()
    return { tools: (await relay.listTools()).map((tool): Tool => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { ...tool.inputSchema, type: 'object' },
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    })) }
  })
  server.setRequestHandler(CallToolRequestSchema, async request => {
    const { name } = request.params
    const args = request.params.arguments ?? {}
    return gate.run(name, args, async signal => {
      const tools = await relay.listTools()
      if (!tools.some(tool => tool.name === name)) {
        return errorResult(`Tool ${name} not found; the tools of this environment are ${tools.map(tool => tool.name).join(', ') || 'none'}.`)
      }
      return directResult(await relay.callTool(name, args, { signal }))
    })
  })
  return server
}

function directResult(output: string): CallToolResult {
  const promoted = promoteImages(output)
  return { content: [{ type: 'text', text: promoted.text }, ...promoted.images], isError: isErrorEnvelope(output) }
}

/** True for the runtime's `{error, code}` envelope (environment.md §4.4). */
function isErrorEnvelope(output: string): boolean {
  try {
    const value: unknown = JSON.parse(output)
    return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string'
  } catch {
    return false
  }
}
