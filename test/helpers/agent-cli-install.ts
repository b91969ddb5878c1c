// Installs the real agent CLIs the tests run (Claude Code, Codex CLI, the MCP Inspector CLI) on demand, pinned to
// exact versions, into a cache folder outside node_modules that later runs reuse. Not project dependencies: together
// they weigh over 1 GB (every tested version of each), and a user's `npm ci` stays lean. No test logic here.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { TESTED_CLI_VERSIONS } from '../../src/agents/cli/tested-versions.ts'

/**
 * What the tests install: the agent CLIs at every version the tests cover (defined once in src, where `awb doctor`
 * reads them too), and the MCP Inspector, a test tool only, at its one pin.
 */
export const PINNED_CLIS = {
  ...TESTED_CLI_VERSIONS,
  // The last of the 1.x line (a client on MCP SDK 1.x) and `latest` on 2026-12-06 (2.x, a client on the MCP SDK 2 packages,
  // what `npx @modelcontextprotocol/inspector` gets; it needs Node ≥ 22.19, the default leg's Node is 24). The separate
  // inspector-cli package cannot run outside this one.
  inspector: { pkg: '@modelcontextprotocol/inspector', bin: 'mcp-inspector', versions: ['1.0.3', '2.12.0'] },
} as const satisfies Record<string, { pkg: string, bin: string, versions: readonly string[] }>

export type PinnedCli = keyof typeof PINNED_CLIS

/** An npm install of a ~400 MB package on a slow link, in milliseconds. */
const INSTALL_TIMEOUT_MS = 600_000

/** `$AWB_AGENT_CLI_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/awb-agent-clis`. */
export function agentCliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AWB_AGENT_CLI_CACHE !== undefined && env.AWB_AGENT_CLI_CACHE !== '') return env.AWB_AGENT_CLI_CACHE
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache')
  return join(base, 'awb-agent-clis')
}

export interface InstalledCli {
  /** Absolute path of the binary (`<folder>/node_modules/.bin/<bin>`). */
  bin: string
  /** The folder holding `bin` (to put first on PATH). */
  binDir: string
  version: string
}

/**
 * The CLI at `version` (one of its pinned versions), installed first when the cache lacks it; each version has its
 * own folder, so the versions of one CLI sit side by side. The install goes to a private folder that is renamed
 * into place only when complete, so an interrupted install is never reused and two test files may race safely.
 * Throws with npm's output when the install fails (e.g. no registry access).
 */
export async function ensureAgentCli(name: PinnedCli, version: string, env: NodeJS.ProcessEnv = process.env): Promise<InstalledCli> {
  const { pkg, bin, versions } = PINNED_CLIS[name]
  // Only pinned versions: a test that installed another would cover a version no list names.
  if (!(versions as readonly string[]).includes(version)) throw new Error(`${pkg}@${version} is not pinned (pinned: ${versions.join(', ')})`)
  const root = agentCliCacheDir(env)
  const folder = join(root, `${pkg.replace('/', '+')}@${version}`)
  const binDir = join(folder, 'node_modules', '.bin')
  const installed = { bin: join(binDir, bin), binDir, version }
  if (existsSync(installed.bin)) return installed
  await mkdir(root, { recursive: true })
  const partial = `${folder}.partial-${process.pid}-${Date.now()}`
  try {
    await npmInstall(partial, `${pkg}@${version}`)
    try {
      await rename(partial, folder)
    } catch (error) {
      // Another process finished first: its copy is as good as ours.
      if (!existsSync(installed.bin)) throw error
    }
  } finally {
    await rm(partial, { recursive: true, force: true })
  }
  if (!existsSync(installed.bin)) throw new Error(`installing ${pkg}@${version} into ${folder} gave no ${bin} binary; remove the folder and retry`)
  return installed
}

function npmInstall(prefix: string, spec: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    execFile(npm, ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec], { timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve()
      else reject(new Error(`npm install ${spec} (for the agent CLI tests) failed: ${error.message}\n${stdout}\n${stderr}\nThese tests need the npm registry once; later runs reuse ${prefix.replace(/\.partial-.*$/, '')}.`))
    })
  })
}
