// Node only: the command line an agent CLI runs to reach a sample's HTTP endpoint over stdio (`awb mcp --connect`).
import { fileURLToPath } from 'node:url'

/** The `awb` launcher of this checkout (loads the TypeScript sources through tsx). */
const AWB_BIN = fileURLToPath(new URL('../../bin/awb.mjs', import.meta.url))

/** An MCP stdio server command as agent CLIs configure it. */
export interface StdioCommand {
  command: string
  args: string[]
}

/** `node <checkout>/bin/awb.mjs mcp --connect <url>`, with this Node binary (agent CLIs may have another on PATH). */
export function bridgeCommand(url: string): StdioCommand {
  return { command: process.execPath, args: [AWB_BIN, 'mcp', '--connect', url] }
}
