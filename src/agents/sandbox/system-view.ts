// The system part of every sandbox: /usr and the other system folders read-only (a merged-/usr system's /bin, /lib …
// as the same symlinks), /etc read-only with what other users may not read covered (shadow, private keys), and the
// files /etc links to outside the system folders (Ubuntu's resolv.conf lives in /run). Read from the disk once per process.
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { MountOp } from './mount-plan.ts'
import { isWithin, SYSTEM_ROOTS } from './paths.ts'

/** Folders /etc may link into that are never shown (the sandbox has its own /proc and /dev). */
const VIRTUAL_ROOTS = ['/proc', '/dev', '/sys'] as const

let cached: MountOp[] | undefined

/** The system view; the same array on every call. */
export function systemMounts(): readonly MountOp[] {
  cached ??= readSystemMounts()
  return cached
}

function readSystemMounts(): MountOp[] {
  const ops: MountOp[] = []
  for (const root of SYSTEM_ROOTS) {
    try {
      const stat = lstatSync(root)
      if (stat.isSymbolicLink()) ops.push({ kind: 'symlink', target: readlinkSync(root), path: root })
      else if (stat.isDirectory()) ops.push({ kind: 'ro-bind', source: root, path: root })
    } catch {
      // This system has no such folder.
    }
  }
  ops.push(...unreadableBelow('/etc'), ...linkedFrom('/etc'))
  return ops
}

/**
 * Entries of `dir` (recursively) that other users cannot read: what an unprivileged user would not see either. Run
 * as root, the agent would otherwise read /etc/shadow or an SSH host key through the read-only /etc.
 */
function unreadableBelow(dir: string): MountOp[] {
  const masks: MountOp[] = []
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    return masks
  }
  for (const name of entries) {
    const path = join(dir, name)
    let stat
    try {
      stat = lstatSync(path)
    } catch {
      continue
    }
    if (stat.isDirectory()) {
      if ((stat.mode & 0o005) !== 0o005) masks.push({ kind: 'tmpfs', path })
      else masks.push(...unreadableBelow(path))
    } else if (stat.isFile() && (stat.mode & 0o004) === 0) {
      masks.push({ kind: 'mask-file', path })
    }
  }
  return masks
}

/** Files that top-level symlinks of `dir` point to outside the system folders, shown at their real place. */
function linkedFrom(dir: string): MountOp[] {
  const ops: MountOp[] = []
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    return ops
  }
  for (const name of entries) {
    const path = join(dir, name)
    try {
      if (!lstatSync(path).isSymbolicLink()) continue
      const real = realpathSync(path)
      if (!statSync(real).isFile() || (statSync(real).mode & 0o004) === 0) continue
      if ([...SYSTEM_ROOTS, ...VIRTUAL_ROOTS].some(root => isWithin(real, root))) continue
      ops.push({ kind: 'ro-bind', source: real, path: real })
    } catch {
      // A dangling link: nothing to show.
    }
  }
  return ops
}
