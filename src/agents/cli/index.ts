// Public entry of the CLI agents (Node side): Codex CLI and Claude Code invocations, their event readers with the
// privacy filter, quota recognition, their credentials and sandbox access, and the end-to-end runner.
export { CLI_AGENT_ERROR_CODES, CliAgentError, type CliAgentErrorCode } from './errors.ts'
export { MCP_SERVER_NAME, type CliInvocation, type InvocationInput, type McpStdioServer, type WorkspacePage } from './invocation.ts'
export { buildCodexInvocation, checkCodexOverrides, CODEX_TOOL_TIMEOUT_S, type CodexInvocationInput } from './codex-command.ts'
export { buildClaudeInvocation, CLAUDE_MCP_CONNECT_TIMEOUT_MS, CLAUDE_MCP_TOOL_TIMEOUT_MS, firstUserContent } from './claude-command.ts'
export { emptyStreamState, type CliStreamState, type McpServerStatus } from './stream-state.ts'
export { readCodexEvent } from './codex-events.ts'
export { readClaudeEvent } from './claude-events.ts'
export { isPrivateNode, scrubPrivate } from './privacy-filter.ts'
export { isQuotaExhausted, QUOTA_PATTERN } from './quota.ts'
export {
  agentEnvironment, KILL_GRACE_MS, runAgentProcess, STDERR_TAIL_BYTES, STDOUT_LINE_LIMIT_BYTES,
  type AgentProcessOptions, type AgentProcessResult,
} from './agent-process.ts'
export { CLI_AGENT_KINDS, type CliAgentKind } from './cli-agent-kind.ts'
export {
  runCliAgent, summarizeFailure,
  type CliAgentRun, type CliExecution, type McpActivity, type RunCliAgentOptions,
} from './run-cli-agent.ts'
export { runCliAgentOnRelay, type CliAgentSampleRun, type RunCliAgentOnRelayOptions } from './run-on-relay.ts'
export { checkCliMcpHandshake, HANDSHAKE_TIMEOUT_MS, type HandshakeOptions, type HandshakeResult } from './mcp-handshake.ts'
export { copyPages } from './workspace-pages.ts'
export { cliCredentialInUse, cliSandboxAccess, type CliCredential, type CliSandboxAccess } from './credentials.ts'
export { cliVersionCoverage, parseCliVersion, TESTED_CLI_VERSIONS, type CliVersionCoverage, type TestedCli } from './tested-versions.ts'
