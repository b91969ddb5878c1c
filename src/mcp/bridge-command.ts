// Node only: the command line an agent CLI runs to reach a sample's HTTP endpoint over stdio (`awb mcp --connect`).
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../shared/package-root.ts'

/** The `awb` launcher of this package (compiled JavaScript when installed, the sources through tsx in a checkout). */
const AWB_BIN = join(PACKAGE_ROOT, 'bin', 'awb.mjs')

/** An MCP stdio server command as agent CLIs configure it. */
export interface StdioCommand {
  command: string
  args: string[]
}

/** `node <package>/bin/awb.mjs mcp --connect <url>`, with this Node binary (agent CLIs may have another on PATH). */
export function bridgeCommand(url: string): StdioCommand {
  return { command: process.execPath, args: [AWB_BIN, 'mcp', '--connect', url] }
}
