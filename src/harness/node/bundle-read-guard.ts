// Node only: keeps the answers out of page agents' bundles. A page agent's module is bundled in Node, where Vite reads
// any file it names: `import gt from '/…/evaluation.json?raw'`, a JSON import, `?url`/`?inline` (inlined as data URLs),
// `new URL('…', import.meta.url)`, `import.meta.glob`, a CSS `url()` would put ground truth into the agent's own code.
// Every file the build reads is judged here first: by its path as written, normalised and through its symlinks, and
// by inode where it is hard-linked; the name `evaluation.json` anywhere is refused as the serve guard refuses it.
import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { ANSWERS_MARKER, insideAnswersFolder } from '../../shared/answer-folders.ts'

/** The file name that is ground truth wherever it sits (as the serve guard: plugin/serve-guard.ts). */
const GROUND_TRUTH_NAME = 'evaluation.json'

/** Style sheets: a realm has no document to style, and CSS `url()`/`@import` read files outside the module graph. */
const STYLE_SHEET = /\.(css|less|sass|scss|styl|stylus|pcss|postcss|sss)$/i

/** The asset references Vite resolves and reads itself, outside `load` (its own pattern: `new URL('…', import.meta.url)`). */
const IMPORT_META_URL = /\bnew\s+URL\s*\(\s*('[^']+'|"[^"]+"|`[^`]+`)\s*,\s*import\.meta\.url\s*(?:,\s*)?\)/g

/** The prefix bundle() turns into AGENT_REALM_FORBIDDEN_IMPORT. */
const FORBIDDEN = 'AGENT_REALM_FORBIDDEN_IMPORT: '

const WHY = 'page agents cannot bundle the benchmark package, earlier runs, the demonstrations or the fixture generator (ground truth and solutions); a sample reaches its agent only through the tools, prompt and reference pages of its context'

export interface BundleReadGuard {
  /** The reason `id` (a module id or file path, queries allowed) may not be read, or undefined when it may. */
  refusal(id: string): string | undefined
}

/**
 * A guard over `protectedDirs` (absolute; a folder that does not exist yet is judged by its path). Hard links are found
 * by inode: the protected folders are walked once, on the first hard-linked file the build reads, for their own
 * hard-linked files (a file with one link cannot be the same file as any other path).
 */
export function createBundleReadGuard(protectedDirs: readonly string[]): BundleReadGuard {
  const dirs = [...new Set(protectedDirs.flatMap(dir => [resolve(dir), realOrUndefined(resolve(dir))]).filter(dir => dir !== undefined))]
  const foldedDirs = dirs.map(folded)
  let linkedInodes: Set<string> | undefined
  const inProtectedDir = (path: string) => {
    const candidate = folded(path)
    return foldedDirs.some(dir => candidate === dir || candidate.startsWith(`${dir}/`))
  }
  return {
    refusal(id) {
      const path = filePathOf(id)
      if (path === undefined) return undefined
      if (basename(path).toLowerCase() === GROUND_TRUTH_NAME) return `${path} is ground truth (${GROUND_TRUTH_NAME})`
      const real = realOrUndefined(path)
      for (const form of [path, real]) {
        if (form !== undefined && inProtectedDir(form)) return `${path}${form === path ? '' : ` (${form})`} lies in a protected folder`
        if (form !== undefined && insideAnswersFolder(form)) return `${path}${form === path ? '' : ` (${form})`} lies in a folder that holds answers (a run or report, marked ${ANSWERS_MARKER})`
      }
      if (real !== undefined && basename(real).toLowerCase() === GROUND_TRUTH_NAME) return `${path} is a link to ground truth (${real})`
      const stats = statOrUndefined(path)
      if (stats !== undefined && stats.isFile() && stats.nlink > 1) {
        linkedInodes ??= hardLinkedInodes(dirs)
        if (linkedInodes.has(inodeKey(stats))) return `${path} is a hard link to a file in a protected folder`
      }
      return undefined
    },
  }
}

/**
 * The Vite plugin that applies the guard to a bundle: before any other plugin loads a module (`?raw`, `?url`,
 * `?inline`, JSON, globs and dynamic imports all arrive here as module ids), before Vite resolves a
 * `new URL('…', import.meta.url)` asset itself, and to every module of the finished chunk.
 */
export function refuseProtectedReads(guard: BundleReadGuard, root: string) {
  const refuse = (reason: string, importer: string | undefined): never => {
    throw new Error(`${FORBIDDEN}${importer === undefined ? 'the agent bundle' : importer} reads a file no page may read: ${reason}; ${WHY}`)
  }
  return {
    name: 'awb-agent-realm-refuse-protected-reads',
    enforce: 'pre' as const,
    load(id: string) {
      const path = filePathOf(id)
      if (path !== undefined && STYLE_SHEET.test(path)) {
        throw new Error(`${FORBIDDEN}the agent bundle imports the style sheet ${path}: a page agent's realm has no document to style; remove the import`)
      }
      const reason = guard.refusal(id)
      if (reason !== undefined) refuse(reason, undefined)
      return undefined
    },
    async transform(this: { resolve: (source: string, importer?: string, options?: { skipSelf?: boolean }) => Promise<{ id: string } | null> }, code: string, id: string) {
      if (!code.includes('import.meta.url')) return undefined
      for (const match of code.matchAll(IMPORT_META_URL)) {
        const literal = match[1]!.slice(1, -1)
        if (/^data:/i.test(literal)) continue
        // A template with `${…}` becomes an import.meta.glob of `?url` modules, which load() judges; its fixed part
        // is judged here too.
        const url = literal.split(/[?#]/)[0]!.replace(/\$\{[^}]*\}.*$/s, '')
        const candidates = url.startsWith('.') ? [resolve(dirname(filePathOf(id) ?? root), url)] : [url, join(root, url)]
        const resolved = await this.resolve(url, id, { skipSelf: true }).catch(() => null)
        if (resolved !== null) candidates.push(resolved.id)
        for (const candidate of candidates) {
          const reason = isAbsolute(filePathOf(candidate) ?? '') ? guard.refusal(candidate) : undefined
          if (reason !== undefined) refuse(reason, filePathOf(id))
        }
        if (literal.toLowerCase().includes(GROUND_TRUTH_NAME)) refuse(`${literal} names ground truth (${GROUND_TRUTH_NAME})`, filePathOf(id))
      }
      return undefined
    },
    generateBundle(_options: unknown, bundle: Record<string, { type: string; moduleIds?: readonly string[] }>) {
      for (const output of Object.values(bundle)) {
        for (const moduleId of output.moduleIds ?? []) {
          const reason = guard.refusal(moduleId)
          if (reason !== undefined) refuse(reason, undefined)
        }
      }
    },
  }
}

/** The file a module id names: queries and hashes stripped; undefined for virtual modules (`\0…`) and bare ids. */
function filePathOf(id: string): string | undefined {
  if (id.startsWith('\0')) return undefined
  const path = id.replace(/^\/@fs\//, '/').split(/[?#]/)[0]!
  return isAbsolute(path) ? resolve(path) : undefined
}

/** Case folded, as a case-insensitive file system compares names (errs towards refusing, as the serve guard). */
function folded(path: string): string {
  return path.toLowerCase()
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    // Not there: only its path can be judged (a runs folder the first sample creates; a module that fails later).
    return undefined
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    // Not there: Vite's own load reports it.
    return undefined
  }
}

function inodeKey(stats: Stats): string {
  return `${stats.dev}:${stats.ino}`
}

/** The device and inode of every hard-linked file in the folders (links not followed: a link's target is judged by path). */
function hardLinkedInodes(dirs: readonly string[]): Set<string> {
  const inodes = new Set<string>()
  const walk = (dir: string) => {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      // Not there, or not a folder.
      return
    }
    for (const name of names) {
      const path = join(dir, name)
      let stats: Stats
      try {
        stats = lstatSync(path)
      } catch {
        // Gone while walking.
        continue
      }
      if (stats.isDirectory()) walk(path)
      else if (stats.isFile() && stats.nlink > 1) inodes.add(inodeKey(stats))
    }
  }
  for (const dir of dirs) walk(dir)
  return inodes
}
