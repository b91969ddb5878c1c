// Builds the Claude Code invocation exactly as runner.md §4.5 lists it (flags, mcp.json, stream-json user message
// with the reference pages); no I/O.
import { join } from 'node:path'
import { bytesToBase64 } from '../../mcp/index.ts'
import { isPageMimeType } from '../../package/index.ts'
import { CliAgentError } from './errors.ts'
import { type CliInvocation, type InvocationInput, MCP_SERVER_NAME, type WorkspacePage } from './invocation.ts'

/**
 * How long Claude Code may take to connect the MCP server, in milliseconds. Its default (5 s) is shorter than a
 * stdio server that starts a browser; the bridge answers at once, but a slow machine should not lose its tools.
 */
export const CLAUDE_MCP_CONNECT_TIMEOUT_MS = 60_000
/** Claude Code's per-call MCP limit, in milliseconds: the relay's own per-call limit (runner.md §4.8). */
export const CLAUDE_MCP_TOOL_TIMEOUT_MS = 300_000

/** Media types Claude accepts in base64 image blocks. */
/** The first user message's content: the prompt alone, or the prompt then one image block per page (page order). */
export function firstUserContent(prompt: string, pages: readonly WorkspacePage[]): string | Record<string, unknown>[] {
  if (pages.length === 0) return prompt
  return [
    { type: 'text', text: prompt },
    ...pages.map(page => {
      if (!isPageMimeType(page.mimeType)) {
        throw new CliAgentError('CLI_AGENT_PAGE_TYPE', `reference page ${page.page} (${page.path}) is ${page.mimeType}; pages must be PNG, JPEG or WebP`)
      }
      return { type: 'image', source: { type: 'base64', media_type: page.mimeType, data: bytesToBase64(page.bytes) } }
    }),
  ]
}

/**
 * `claude -p --output-format stream-json …` with no built-in tools, only `mcp__assembly__*` allowed, the relay
 * declared in `<workspace>/mcp.json`. With pages stdin is one stream-json user message; without, the prompt text.
 */
export function buildClaudeInvocation(input: InvocationInput): CliInvocation {
  const mcpConfig = join(input.workspace, 'mcp.json')
  const args = [
    '-p', '--output-format', 'stream-json', '--verbose', '--model', input.model,
    '--mcp-config', mcpConfig, '--strict-mcp-config',
    '--setting-sources', '', '--tools', '',
    '--permission-mode', 'dontAsk', '--allowedTools', `mcp__${MCP_SERVER_NAME}__*`,
    '--no-session-persistence', '--disable-slash-commands', '--no-chrome',
    ...(input.effort === undefined ? [] : ['--effort', input.effort]),
    ...(input.pages.length === 0 ? [] : ['--input-format', 'stream-json']),
  ]
  const stdin = input.pages.length === 0
    ? input.prompt
    : `${JSON.stringify({ type: 'user', message: { role: 'user', content: firstUserContent(input.prompt, input.pages) }, parent_tool_use_id: null })}\n`
  const config = { mcpServers: { [MCP_SERVER_NAME]: { type: 'stdio', command: input.mcp.command, args: [...input.mcp.args] } } }
  // In -p mode Claude Code connects MCP servers in the background unless told not to: the first model request
  // then offers no tools at all (`tools: []`) and the server shows `pending` in the init event (runner.md §4.5).
  // Tool search off: with it on, Claude Code may hold MCP tools back until the model searches for them, and from
  // 2.1.332 (even against a custom ANTHROPIC_BASE_URL) every request also offers a `DeferredToolPlaceholder` tool;
  // off, every request offers exactly the benchmark tools, in every version.
  const env = {
    MCP_CONNECTION_NONBLOCKING: 'false',
    ENABLE_TOOL_SEARCH: 'false',
    MCP_CONNECT_TIMEOUT_MS: String(CLAUDE_MCP_CONNECT_TIMEOUT_MS),
    MCP_TIMEOUT: String(CLAUDE_MCP_CONNECT_TIMEOUT_MS),
    MCP_TOOL_TIMEOUT: String(CLAUDE_MCP_TOOL_TIMEOUT_MS),
  }
  return { command: 'claude', args, stdin, files: [{ path: mcpConfig, content: `${JSON.stringify(config, null, 2)}\n` }], env }
}
