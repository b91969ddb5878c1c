// The bubblewrap argument list for one agent process, from what it may see: the system, a fresh /tmp, private
// writable folders (HOME), read-only paths, its workspace. Hidden paths lying inside anything shown are covered
// (an empty folder or /dev/null), and nothing inside a hidden path is shown. Pure: the caller looks at the disk.
import { depthOf, isWithin } from './paths.ts'

/** One mount of the sandbox's file view. */
export type MountOp =
  | { kind: 'ro-bind', source: string, path: string }
  | { kind: 'bind', source: string, path: string }
  | { kind: 'tmpfs', path: string }
  | { kind: 'symlink', target: string, path: string }
  /** A file hidden under an empty read-only file. */
  | { kind: 'mask-file', path: string }

/** Namespaces: all of them (user where possible, pid, ipc, uts, cgroup) except the network, which agents need. */
export const NAMESPACE_ARGS = ['--unshare-all', '--share-net'] as const
/**
 * The sandbox dies with the harness; its programs cannot push input into the harness's terminal; and the program is
 * the PID namespace's init (no bubblewrap reaper above it: /proc shows no parent), so that when it exits the kernel
 * kills everything else in the namespace and bubblewrap returns only once all of it is gone — a detached child
 * cannot outlive the sample, and "gone" holds the moment the run returns.
 */
export const LIFETIME_ARGS = ['--die-with-parent', '--new-session', '--as-pid-1'] as const

export interface MountPlanInput {
  /** The system view (`systemMounts`): read-only binds, symlinks and masks of unreadable system files. */
  system: readonly MountOp[]
  /** Folders that are fresh and writable inside (HOME, a CLI's configuration folder), empty at start. */
  privateDirs: readonly string[]
  /** Host paths shown read-only at the same place, each with its real path (bound from there). */
  readOnly: readonly { path: string, real: string }[]
  /** The sample's workspace: the only host folder the program may write (none for the start-up probe). */
  workspace: string | undefined
  /** Real paths never shown, each with whether it is a folder. */
  hidden: readonly { path: string, isDirectory: boolean }[]
}

/** The mounts in the order bubblewrap applies them: outer folders first, so that inner ones land on top. */
export function mountPlan(input: MountPlanInput): MountOp[] {
  const insideHidden = (path: string): boolean => input.hidden.some(hidden => isWithin(path, hidden.path))
  const binds: MountOp[] = []
  for (const { path, real } of input.readOnly) {
    if (insideHidden(real) || insideHidden(path)) continue
    binds.push({ kind: 'ro-bind', source: real, path: real })
    if (path !== real) binds.push({ kind: 'ro-bind', source: real, path })
  }
  const layered: MountOp[] = [
    { kind: 'tmpfs', path: '/tmp' },
    ...input.privateDirs.map(path => ({ kind: 'tmpfs' as const, path })),
    ...withoutCovered(binds, input.privateDirs),
    ...(input.workspace === undefined ? [] : [{ kind: 'bind' as const, source: input.workspace, path: input.workspace }]),
  ]
  // Stable by depth; at equal depth a tmpfs first, so that a bind on the same path is not hidden by it.
  const ordered = layered
    .map((op, index) => ({ op, index }))
    .sort((a, b) => depthOf(a.op.path) - depthOf(b.op.path) || rank(a.op) - rank(b.op) || a.index - b.index)
    .map(entry => entry.op)
  const shown = [...input.system, ...ordered]
  const masks: MountOp[] = input.hidden
    .filter(hidden => shown.some(op => (op.kind === 'ro-bind' || op.kind === 'bind') && isWithin(hidden.path, op.source) && hidden.path !== op.source))
    .map(hidden => hidden.isDirectory ? { kind: 'tmpfs' as const, path: hidden.path } : { kind: 'mask-file' as const, path: hidden.path })
  return [...shown, ...masks]
}

/** The bubblewrap options for `ops` (namespaces and lifetime first, then /proc, /dev and the mounts, then the cwd). */
export function bwrapArgs(ops: readonly MountOp[], cwd: string): string[] {
  const args: string[] = [...NAMESPACE_ARGS, ...LIFETIME_ARGS, '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/dev/shm']
  for (const op of ops) {
    switch (op.kind) {
      case 'ro-bind':
        args.push('--ro-bind', op.source, op.path)
        break
      case 'bind':
        args.push('--bind', op.source, op.path)
        break
      case 'tmpfs':
        args.push('--tmpfs', op.path)
        break
      case 'symlink':
        args.push('--symlink', op.target, op.path)
        break
      case 'mask-file':
        args.push('--ro-bind', '/dev/null', op.path)
        break
      default: {
        const unknown: never = op
        throw new TypeError(`unknown mount ${JSON.stringify(unknown)}`)
      }
    }
  }
  args.push('--chdir', cwd)
  return args
}

/**
 * Read-only binds already shown by an outer read-only bind of the same place are dropped (fewer mounts, same view),
 * unless a private folder between the two would cover the inner one.
 */
function withoutCovered(binds: readonly MountOp[], privateDirs: readonly string[]): MountOp[] {
  const unique = [...new Map(binds.map(op => [`${op.kind}\0${op.path}`, op])).values()]
  const covers = (outer: MountOp, inner: MountOp): boolean => outer !== inner && outer.kind === 'ro-bind' && inner.kind === 'ro-bind'
    && outer.source === outer.path && inner.source === inner.path && isWithin(inner.path, outer.path) && inner.path !== outer.path
    && !privateDirs.some(dir => isWithin(dir, outer.path) && isWithin(inner.path, dir))
  return unique.filter(op => !unique.some(other => covers(other, op)))
}

function rank(op: MountOp): number {
  return op.kind === 'tmpfs' ? 0 : 1
}
