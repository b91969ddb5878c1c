// Vite's file checks (`server.fs.deny` and `server.fs.allow`, which @vitest/browser's RPC file readers, snapshot
// readers and mocks consult before they touch a path) compare the path as given: `/root/./pkg/evaluation.json` or
// `/root/suites/../../etc/passwd` slip past the deny glob and pass the allow prefix, and the read then resolves them.
// This wraps the resolved config's deny matcher (a Vite internal, `fsDenyGlob`) so that a path is judged in its
// canonical form too: normalised (`.` and `..` resolved), then through symlinks. Defence in depth: the serve guard
// already refuses such URLs, and page code should not reach Vitest's RPC at all.
import { realpathSync } from 'node:fs'
import { posix } from 'node:path'
import { VitestCompatError } from './select.ts'

/** Marks a matcher this module made, so that a config resolved twice is wrapped once. */
const GUARDED = Symbol.for('assembly-world-bench.fs-deny-guarded')

type DenyMatcher = (path: string) => boolean

/** The resolved config fields the guard reads and replaces. */
interface FsConfig {
  /** `strict` is `'extended'` as well from Vite 8.4 on (every module checked before the load hooks). */
  server: { fs: { strict: boolean | string; allow: string[] } }
}

/**
 * Installs the canonical-path check on a resolved Vite config (call from `configResolved`), and `alsoDenied`, judged
 * on the normalised path (the caller's own rule). Throws when the config has no deny matcher to wrap: a Vite without
 * it would run the defence's absence silently.
 */
export function guardFsPathForms(config: FsConfig, alsoDenied: DenyMatcher = () => false): void {
  const original: unknown = Reflect.get(config, 'fsDenyGlob')
  if (typeof original !== 'function') {
    throw new VitestCompatError('VITEST_DEFENCE_NOT_APPLIED', 'assembly-world-bench: the integrity defence "canonical paths in Vite\'s file checks" cannot be applied: this Vite\'s resolved config has no fsDenyGlob to wrap. Install vite@^8 (the version the plugin is tested with). The run stops before its first sample.')
  }
  if (Reflect.get(original, GUARDED) === true) return
  const deny = original as DenyMatcher
  const guarded: DenyMatcher = path => deny(path) || deniesCanonicalForm(path, deny, config.server.fs.allow) || alsoDenied(posix.normalize(path))
  Reflect.set(guarded, GUARDED, true)
  Reflect.set(config, 'fsDenyGlob', guarded)
}

/**
 * True when `path`, once normalised, is denied or lies outside every allowed folder, or once resolved through
 * symlinks is denied. A path already in canonical form is left to Vite's own checks (nothing more to say about it).
 */
export function deniesCanonicalForm(path: string, deny: DenyMatcher, allow: readonly string[]): boolean {
  const normalised = posix.normalize(path)
  if (normalised !== path && (deny(normalised) || !allow.some(dir => isInside(normalised, dir)))) return true
  const real = realPath(normalised)
  // Only the deny list is judged on the real path: a dependency linked from outside the project (a pnpm store) is
  // legitimately served from outside every allowed folder.
  return real !== normalised && deny(real)
}

function isInside(path: string, dir: string): boolean {
  const folder = dir.endsWith('/') ? dir.slice(0, -1) : dir
  return path === folder || path.startsWith(`${folder}/`)
}

/** The path through its symlinks, or the path itself when it does not exist (yet). */
function realPath(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}
