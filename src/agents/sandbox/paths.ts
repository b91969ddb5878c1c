// Small path helpers of the sandbox: containment tests on absolute paths and tolerant real-path look-ups.
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs'
import { delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path'

/** The top-level system folders every sandbox shows read-only (those that exist). */
export const SYSTEM_ROOTS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'] as const

/** True when `path` is `dir` or lies below it (both absolute and normalised). */
export function isWithin(path: string, dir: string): boolean {
  if (dir === sep) return true
  return path === dir || path.startsWith(`${dir}${sep}`)
}

/** The real path (symlinks resolved), or `path` itself when it does not exist. */
export function realOrSelf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/** True when `path`, as written, lies in a system folder (a program there needs nothing beyond the system view). */
export function isSystemPath(path: string): boolean {
  return SYSTEM_ROOTS.some(root => isWithin(path, root))
}

/** Number of path segments: `/` is 0, `/a/b` is 2. Shallower mounts go first so deeper ones land on top. */
export function depthOf(path: string): number {
  return path.split(sep).filter(part => part !== '').length
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** `name` as `spawn` would find it: a path with a slash (relative to `baseDir`), else the first executable on PATH. */
export function findExecutable(name: string, path: string | undefined, baseDir: string): string | undefined {
  if (name.includes(sep)) {
    const full = isAbsolute(name) ? name : resolve(baseDir, name)
    return existsSync(full) ? full : undefined
  }
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      if (!isDirectory(candidate)) return candidate
    } catch {
      // Not here; the next PATH entry.
    }
  }
  return undefined
}

/** The outermost `node_modules` folder `path` lies in (npm hoists a package's dependencies up to it), if any. */
export function outermostNodeModules(path: string): string | undefined {
  const parts = path.split(sep)
  const at = parts.indexOf('node_modules')
  return at < 0 ? undefined : parts.slice(0, at + 1).join(sep)
}

/** The nearest folder above `dir` (itself included) that holds `name`, as a path to that entry. */
export function nearestAbove(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, name)
    if (existsSync(candidate)) return candidate
    if (dirname(current) === current) return undefined
  }
}
