// What produced a run, for run.json `code_commit` and `versions` (runner.md §5.1): the harness's git commit and the
// versions of the parts that decide results. Reads; never fails a run (unknown values stay null / absent).
import { execFileSync } from 'node:child_process'
import { readFileSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { PACKAGE_NAME, PACKAGE_VERSION } from '../shared/package-root.ts'

/** Packages whose version can change a result or a transcript. */
const RECORDED_PACKAGES = ['vitest', '@vitest/browser-playwright', 'playwright', '@mujoco/mujoco', 'three', '@modelcontextprotocol/sdk'] as const

/**
 * The commit of the git checkout whose top folder is `dir` (with `-dirty` when it has uncommitted changes), or null
 * when `dir` is not a checkout's top: an installed copy inside a user's repository is identified by its version, and
 * the user's commit would name the wrong code.
 */
export function codeCommit(dir: string): string | null {
  try {
    const top = execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim()
    if (realpathSync(top) !== realpathSync(dir)) return null
    const commit = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim()
    const dirty = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() !== ''
    return /^[0-9a-f]{40}$/.test(commit) ? `${commit}${dirty ? '-dirty' : ''}` : null
  } catch {
    return null
  }
}

/** Node's version, this harness's (read once, with its root), and the recorded packages' as installed next to `dir`. */
export function runVersions(dir: string): Record<string, string> {
  const versions: Record<string, string> = { node: process.versions.node, [PACKAGE_NAME]: PACKAGE_VERSION }
  for (const name of RECORDED_PACKAGES) {
    const version = installedVersion(dir, name)
    if (version !== undefined) versions[name] = version
  }
  return versions
}

/** The version in the nearest node_modules/<name>/package.json at or above `dir`, as Node would resolve it. */
function installedVersion(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const version = readVersion(join(at, 'node_modules', name, 'package.json'))
    if (version !== undefined) return version
    if (dirname(at) === at) return undefined
  }
}

function readVersion(packageJson: string): string | undefined {
  try {
    const value = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }
    return typeof value.version === 'string' ? value.version : undefined
  } catch {
    return undefined
  }
}
