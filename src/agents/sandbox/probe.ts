// Whether the sandbox starts on this machine: one cheap `bwrap … true` with the real system view and namespaces,
// asked once per run (per bubblewrap binary) and remembered. A sandbox that cannot start refuses the agent: the
// error says how to make it start, or how to run without it knowingly.
import { execFile } from 'node:child_process'
import { SandboxError } from './errors.ts'
import { bwrapArgs, mountPlan } from './mount-plan.ts'
import { findExecutable } from './paths.ts'
import { systemMounts } from './system-view.ts'

/** A cold bubblewrap start is milliseconds; this only catches a binary that hangs. */
const PROBE_TIMEOUT_MS = 15_000

export type SandboxProbe = { isOk: true } | { isOk: false, reason: string }

const probes = new Map<string, Promise<SandboxProbe>>()

/** Starts `bwrap` once (per binary, per process) and reports whether a sandbox came up. Never throws. */
export function probeSandbox(bwrap: string): Promise<SandboxProbe> {
  let probe = probes.get(bwrap)
  if (probe === undefined) {
    probe = runProbe(bwrap)
    probes.set(bwrap, probe)
  }
  return probe
}

/** The bubblewrap binary to start: `bwrap` as a path, or looked up on the harness's PATH. */
export function bwrapBinary(bwrap: string): string {
  return findExecutable(bwrap, process.env.PATH, process.cwd()) ?? bwrap
}

/** Throws `SandboxError` (`SANDBOX_UNAVAILABLE`) when the sandbox cannot start, with how to fix it. */
export async function assertSandboxAvailable(bwrap: string): Promise<void> {
  const probe = await probeSandbox(bwrap)
  if (!probe.isOk) throw new SandboxError('SANDBOX_UNAVAILABLE', sandboxUnavailableMessage(bwrap, probe.reason))
}

/** The refusal: what failed, why agents need the sandbox, and the ways to fix it. */
export function sandboxUnavailableMessage(bwrap: string, reason: string): string {
  return `the agent sandbox (bubblewrap, ${bwrap}) cannot start: ${reason}. Agent programs (external {command} agents, Codex, Claude Code) `
    + 'run only inside it, so this agent is refused. To fix: install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`; '
    + 'or set AWB_BWRAP to its path); where unprivileged user namespaces are restricted (Ubuntu 23.10+, GitHub\'s Ubuntu runners): '
    + '`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`; on older Debian: `sudo sysctl -w kernel.unprivileged_userns_clone=1`; '
    + 'in a container, allow it user namespaces (or run it privileged). To run without the sandbox anyway, knowingly: AWB_SANDBOX=off '
    + '(the run is then recorded as unsandboxed)'
}

function runProbe(bwrap: string): Promise<SandboxProbe> {
  if (process.platform !== 'linux') return Promise.resolve({ isOk: false, reason: `bubblewrap runs only on Linux (this is ${process.platform})` })
  const args = [...bwrapArgs(mountPlan({ system: systemMounts(), privateDirs: [], readOnly: [], workspace: undefined, hidden: [] }), '/'), '--', 'true']
  return new Promise((resolve) => {
    execFile(bwrapBinary(bwrap), args, { timeout: PROBE_TIMEOUT_MS, env: { PATH: '/usr/bin:/bin' } }, (error, _stdout, stderr) => {
      if (error === null) return resolve({ isOk: true })
      const code: unknown = (error as { code?: unknown }).code
      if (code === 'ENOENT') return resolve({ isOk: false, reason: `${bwrap} was not found (bubblewrap is not installed, or not on PATH)` })
      const said = stderr.trim().split('\n').filter(line => line !== '').slice(-2).join(' / ')
      resolve({ isOk: false, reason: error.killed ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : said === '' ? error.message : said })
    })
  })
}
