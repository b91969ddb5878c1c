// Builds the Codex CLI invocation exactly as runner.md §4.5 lists it and checks `--codex-config` overrides; no I/O.
import { CliAgentError } from './errors.ts'
import { type CliInvocation, type InvocationInput, MCP_SERVER_NAME } from './invocation.ts'

/** The per-call limit Codex applies to MCP tools, in seconds (runner.md §4.8). */
export const CODEX_TOOL_TIMEOUT_S = 300

/**
 * `--codex-config` keys a user may set: the provider, its endpoint and the context window (runner.md §2, plus
 * `openai_base_url`, the built-in provider's endpoint). None of them can re-enable a tool.
 */
const ALLOWED_OVERRIDE = /^(?:model_provider|model_context_window|openai_base_url|model_providers\.[A-Za-z0-9_.-]+)$/

/**
 * Built-in tools Codex 0.171 still offers with the reference flags, switched off by feature flag. What stays
 * (no flag turns it off): `list_mcp_resources`, `list_mcp_resource_templates`, `read_mcp_resource`,
 * `request_user_input`. Measured from the `tools` of its first model request.
 */
const CODEX_EXTRA_FEATURES_OFF = [
  'view_image', 'goals', 'image_generation', 'sleep_tool', 'tool_suggest', 'apps', 'computer_use', 'browser_use',
  'unified_exec', 'plugins', 'hooks', 'in_app_browser', 'skill_search',
] as const

/**
 * Checks `KEY=VALUE` overrides; returns them unchanged. Throws `CliAgentError` for a malformed entry or a
 * key outside `model_provider`, `model_context_window`, `model_providers.*` (they could re-enable tools).
 */
export function checkCodexOverrides(entries: readonly string[]): string[] {
  return entries.map(entry => {
    const at = entry.indexOf('=')
    if (at <= 0) throw new CliAgentError('CLI_AGENT_CONFIG_SYNTAX', `--codex-config ${entry}: expected KEY=VALUE (e.g. model_provider="azure")`)
    const key = entry.slice(0, at)
    if (!ALLOWED_OVERRIDE.test(key)) {
      throw new CliAgentError('CLI_AGENT_CONFIG_KEY', `--codex-config ${key} is not allowed; only model_provider, model_context_window and model_providers.* may be overridden`)
    }
    return entry
  })
}

export interface CodexInvocationInput extends InvocationInput {
  /** Checked `--codex-config` entries, applied last so they win. */
  overrides?: readonly string[] | undefined
  /**
   * The endpoint of Codex's built-in OpenAI provider (`openai_base_url`), e.g. from `OPENAI_BASE_URL`, which
   * Codex itself ignores. Undefined: Codex's default. An override of `openai_base_url` still wins.
   */
  baseUrl?: string | undefined
}

/**
 * `codex exec --json …` with every built-in tool off that a flag can turn off, the relay as the only MCP server, images in page order
 * and the prompt on stdin (`-- -`). Values are TOML: strings are written as JSON strings, which TOML accepts.
 */
export function buildCodexInvocation(input: CodexInvocationInput): CliInvocation {
  const server = `mcp_servers.${MCP_SERVER_NAME}`
  const config = [
    'approval_policy="never"',
    'features.shell_tool=false',
    'features.multi_agent=false',
    'features.memories=false',
    'web_search="disabled"',
    `${server}.command=${JSON.stringify(input.mcp.command)}`,
    `${server}.args=[${input.mcp.args.map(arg => JSON.stringify(arg)).join(',')}]`,
    `${server}.required=true`,
    `${server}.default_tools_approval_mode="approve"`,
    `${server}.tool_timeout_sec=${CODEX_TOOL_TIMEOUT_S}`,
    'project_doc_max_bytes=0',
    ...CODEX_EXTRA_FEATURES_OFF.map(feature => `features.${feature}=false`),
    ...(input.baseUrl === undefined ? [] : [`openai_base_url=${JSON.stringify(input.baseUrl)}`]),
    ...(input.effort === undefined ? [] : [`model_reasoning_effort=${JSON.stringify(input.effort)}`]),
    ...checkCodexOverrides(input.overrides ?? []),
  ]
  const args = [
    'exec', '--json', '--ephemeral', '--ignore-user-config', '--ignore-rules', '--skip-git-repo-check',
    '--sandbox', 'read-only', '--model', input.model, '-C', input.workspace,
    ...config.flatMap(entry => ['-c', entry]),
    ...input.pages.flatMap(page => ['--image', page.path]),
    '--', '-',
  ]
  return { command: 'codex', args, stdin: input.prompt, files: [], env: {} }
}
