// Codex / Claude Code command shapes (runner.md §4.5) and the --codex-config key rule.
import { describe, expect, it } from 'vitest'
import { buildClaudeInvocation, buildCodexInvocation, checkCodexOverrides, CliAgentError, type WorkspacePage } from '../../../../src/agents/cli/index.ts'
import { tinyPng } from '../../../helpers/episode-fixture.ts'

const mcp = { command: '/usr/bin/node', args: ['/x/bin/awb.mjs', 'mcp', '--connect', 'http://127.0.0.1:5/t/mcp'] }
const pages: WorkspacePage[] = [
  { page: 1, mimeType: 'image/png', bytes: tinyPng(1), path: '/ws/reference-0001.png' },
  { page: 2, mimeType: 'image/jpeg', bytes: tinyPng(2), path: '/ws/reference-0002.jpg' },
]
const base = { model: 'gpt-5.5', prompt: 'Assemble.\n\nEnd with a JSON object.\n', workspace: '/ws', mcp }

describe('Codex invocation', () => {
  it('is exactly the reference command line, images in page order, prompt on stdin', () => {
    const invocation = buildCodexInvocation({ ...base, effort: 'high', pages, overrides: ['model_provider="azure"'] })
    expect(invocation.command).toBe('codex')
    expect(invocation.stdin).toBe(base.prompt)
    expect(invocation.args).toEqual([
      'exec', '--json', '--ephemeral', '--ignore-user-config', '--ignore-rules', '--skip-git-repo-check',
      '--sandbox', 'read-only', '--model', 'gpt-5.5', '-C', '/ws',
      '-c', 'approval_policy="never"',
      '-c', 'features.shell_tool=false',
      '-c', 'features.multi_agent=false',
      '-c', 'features.memories=false',
      '-c', 'web_search="disabled"',
      '-c', 'mcp_servers.assembly.command="/usr/bin/node"',
      '-c', 'mcp_servers.assembly.args=["/x/bin/awb.mjs","mcp","--connect","http://127.0.0.1:5/t/mcp"]',
      '-c', 'mcp_servers.assembly.required=true',
      '-c', 'mcp_servers.assembly.default_tools_approval_mode="approve"',
      '-c', 'mcp_servers.assembly.tool_timeout_sec=300',
      '-c', 'project_doc_max_bytes=0',
      ...['view_image', 'goals', 'image_generation', 'sleep_tool', 'tool_suggest', 'apps', 'computer_use', 'browser_use', 'unified_exec', 'plugins', 'hooks', 'in_app_browser', 'skill_search'].flatMap(feature => ['-c', `features.${feature}=false`]),
      '-c', 'model_reasoning_effort="high"',
      '-c', 'model_provider="azure"',
      '--image', '/ws/reference-0001.png', '--image', '/ws/reference-0002.jpg',
      '--', '-',
    ])
  })

  it('passes an endpoint as openai_base_url (before the overrides, which win)', () => {
    const { args } = buildCodexInvocation({ ...base, pages: [], baseUrl: 'http://127.0.0.1:8000/v1', overrides: ['model_provider="local"'] })
    expect(args.indexOf('openai_base_url="http://127.0.0.1:8000/v1"')).toBeGreaterThan(0)
    expect(args.indexOf('openai_base_url="http://127.0.0.1:8000/v1"')).toBeLessThan(args.indexOf('model_provider="local"'))
  })

  it('omits effort and images when not given', () => {
    const { args } = buildCodexInvocation({ ...base, pages: [] })
    expect(args.join(' ')).not.toContain('model_reasoning_effort')
    expect(args).not.toContain('--image')
    expect(args.slice(-2)).toEqual(['--', '-'])
  })

  it('accepts only provider keys in --codex-config', () => {
    expect(checkCodexOverrides(['model_provider=x', 'model_context_window=200000', 'model_providers.azure.base_url="https://a"', 'openai_base_url="http://127.0.0.1:8000/v1"'])).toHaveLength(4)
    for (const bad of ['features.shell_tool=true', 'mcp_servers.other.command="sh"', 'sandbox_mode="danger-full-access"', 'model_providers=1x']) {
      expect(() => checkCodexOverrides([bad])).toThrow(CliAgentError)
    }
    expect(() => checkCodexOverrides(['model_provider'])).toThrow(/expected KEY=VALUE/)
    expect(() => buildCodexInvocation({ ...base, pages: [], overrides: ['web_search="live"'] })).toThrow(/web_search is not allowed/)
  })
})

describe('Claude Code invocation', () => {
  it('with pages: the reference flags, stream-json input, mcp.json with the one assembly server', () => {
    const invocation = buildClaudeInvocation({ ...base, effort: 'max', pages })
    expect(invocation.command).toBe('claude')
    expect(invocation.args).toEqual([
      '-p', '--output-format', 'stream-json', '--verbose', '--model', 'gpt-5.5',
      '--mcp-config', '/ws/mcp.json', '--strict-mcp-config',
      '--setting-sources', '', '--tools', '',
      '--permission-mode', 'dontAsk', '--allowedTools', 'mcp__assembly__*',
      '--no-session-persistence', '--disable-slash-commands', '--no-chrome',
      '--effort', 'max',
      '--input-format', 'stream-json',
    ])
    // Blocking MCP start-up with generous limits, and tool search off (else Claude Code 2.1.332 offers a
    // DeferredToolPlaceholder tool beside ours): the model is offered exactly the benchmark tools from its first turn.
    expect(invocation.env).toEqual({ MCP_CONNECTION_NONBLOCKING: 'false', ENABLE_TOOL_SEARCH: 'false', MCP_CONNECT_TIMEOUT_MS: '60000', MCP_TIMEOUT: '60000', MCP_TOOL_TIMEOUT: '300000' })
    expect(invocation.files).toEqual([{ path: '/ws/mcp.json', content: `${JSON.stringify({ mcpServers: { assembly: { type: 'stdio', ...mcp } } }, null, 2)}\n` }])
    expect(invocation.stdin.endsWith('\n')).toBe(true)
    const message = JSON.parse(invocation.stdin) as { type: string, parent_tool_use_id: null, message: { role: string, content: { type: string, source?: { media_type: string } }[] } }
    expect(message.type).toBe('user')
    expect(message.parent_tool_use_id).toBeNull()
    expect(message.message.role).toBe('user')
    expect(message.message.content.map(block => block.type)).toEqual(['text', 'image', 'image'])
    expect(message.message.content.map(block => block.source?.media_type)).toEqual([undefined, 'image/png', 'image/jpeg'])
  })

  it('without pages: plain prompt text on stdin, no --input-format, no --effort', () => {
    const invocation = buildClaudeInvocation({ ...base, pages: [] })
    expect(invocation.stdin).toBe(base.prompt)
    expect(invocation.args).not.toContain('--input-format')
    expect(invocation.args).not.toContain('--effort')
  })

  it('refuses a page type Claude cannot take', () => {
    expect(() => buildClaudeInvocation({ ...base, pages: [{ ...pages[0]!, mimeType: 'image/gif' }] })).toThrow(/PNG, JPEG or WebP/)
  })
})
