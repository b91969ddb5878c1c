// What starting a CLI agent takes (program, arguments, stdin, files to write first) and the shared inputs of the
// Codex and Claude command builders; no process handling here.
import type { ReferencePage } from '../agent.ts'

/** An MCP stdio server as agent CLIs configure it (the relay command and its arguments). */
export interface McpStdioServer {
  command: string
  args: readonly string[]
}

/** A reference page copied into the workspace (`reference-0001.png`, …), with its bytes for inline attachment. */
export interface WorkspacePage extends ReferencePage {
  /** Absolute path inside the workspace. */
  path: string
}

export interface InvocationInput {
  model: string
  /** Free text passed to the CLI (`model_reasoning_effort` / `--effort`); omitted when undefined. */
  effort?: string | undefined
  /** The composed prompt (task + protocol block). */
  prompt: string
  /** Reference pages in page order (empty for `none` blocks). */
  pages: readonly WorkspacePage[]
  /** The sample's private workspace, the CLI's working directory. */
  workspace: string
  /** The single MCP server, registered as `assembly`. */
  mcp: McpStdioServer
}

/**
 * A CLI invocation: run `command args` in the workspace with `env` set over the agent's environment, write
 * `files` first, send `stdin` and close it.
 */
export interface CliInvocation {
  command: string
  args: string[]
  stdin: string
  files: { path: string, content: string }[]
  /** Variables the CLI needs for the benchmark to work (they win over inherited ones). */
  env: Record<string, string>
}

/** The MCP server name both CLIs see; Claude's tool names become `mcp__assembly__<tool>`. */
export const MCP_SERVER_NAME = 'assembly'
