// Node only: what a CLI agent's sandbox shows besides the CLI itself — its login files read-only, its configuration
// folders fresh, and the MCP bridge it spawns (this package's `awb mcp --connect` on this Node). The environment
// allow-list is run-cli-agent.ts's; the process handling agent-process.ts's.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { containedLaunch, type ContainedLaunch, type SandboxSettings } from '../sandbox/index.ts'
import { ENCLOSING_NODE_MODULES, PACKAGE_ROOT } from '../../shared/package-root.ts'
import type { CliSandboxAccess } from './credentials.ts'
import type { McpStdioServer } from './invocation.ts'

export interface CliLaunchInput {
  settings: SandboxSettings
  workspace: string
  command: string
  args: readonly string[]
  /** Leading arguments that are the program's own files (an `executable` override's arguments); the CLI's flags are not. */
  fileArgs: number
  /** The allow-listed environment. */
  env: NodeJS.ProcessEnv
  /** The MCP server the CLI starts. */
  mcp: McpStdioServer
  access: CliSandboxAccess
}

/** The launch of a CLI agent (see `containedLaunch`; throws `SandboxError` when the sandbox cannot start). */
export function cliLaunch(input: CliLaunchInput): Promise<ContainedLaunch> {
  return containedLaunch({
    settings: input.settings,
    workspace: input.workspace,
    command: input.command,
    args: input.args,
    fileArgs: input.fileArgs,
    baseDir: process.cwd(),
    env: input.env,
    readOnly: [...input.access.loginFiles, ...bridgeModules()],
    privateDirs: input.access.configDirs,
    // The bridge's launcher, its package.json and node_modules come with it; its Node binary too.
    helpers: [{ command: input.mcp.command, args: input.mcp.args, fileArgs: 1 }],
  })
}

/**
 * The modules `bin/awb.mjs` loads: the TypeScript sources in a checkout (never dist/, whose compiled fixtures must not
 * be seen), the compiled dist/ when installed, and the node_modules an installed copy lies in.
 */
function bridgeModules(): string[] {
  const fromSources = existsSync(join(PACKAGE_ROOT, 'src', 'cli', 'main.ts'))
  return [join(PACKAGE_ROOT, fromSources ? 'src' : 'dist'), ...(ENCLOSING_NODE_MODULES === undefined ? [] : [ENCLOSING_NODE_MODULES])]
}
