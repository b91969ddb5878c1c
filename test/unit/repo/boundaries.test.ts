// Folder boundaries (STYLE.md rules 1–3), checked statically on every import and export-from statement: page code
// reaches no Node module, src/ never imports Vitest, and a src/ folder is entered only through an index.ts.
import { readdir, readFile } from 'node:fs/promises'
import { isBuiltin } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

/**
 * Folders whose files run in the page (Chromium): the block suite, the world runtime (isomorphic), the renderer,
 * WebMCP registration, the headless driver's page side, the MCP relay's page side and the HTML report's app.
 * Everything these files import at run time is page code too (followed below), e.g. src/harness/index.ts.
 */
const PAGE_FOLDERS = ['suites', 'src/world', 'src/render', 'src/webmcp', 'src/headless/page', 'src/mcp/page', 'src/report/html/app']

/** Packages that only run on Node (or drive the browser from outside it): never in page code. */
const NODE_ONLY_PACKAGES = ['playwright', 'playwright-core', '@playwright/test', 'vite', 'vitest/node', '@vitest/browser-playwright', 'tsx']

/**
 * Imports into another src/ folder that may skip its index.ts, each with its reason. Keep this list short: a new
 * entry needs a reason as good as these.
 */
const INDEX_EXCEPTIONS: { target: RegExp; reason: string }[] = [
  {
    target: /^src\/shared\/[^/]+\.ts$/,
    reason: 'src/shared is a kit of single-purpose modules with no index.ts on purpose: errors.ts (the AwbError base) '
      + 'and base64.ts are page-safe, atomic-write.ts and chromium.ts are Node-only, and one index would carry Node modules into page bundles',
  },
]

/** The one folder that may use Vitest's internals and undocumented behaviour, through one adapter per major. */
const COMPAT_FOLDER = 'plugin/vitest-compat'

/**
 * Vitest and Vite entry points any module may import: their documented, public APIs. `typesOnly`: only `import type`
 * outside the compatibility layer (vitest/node's values, e.g. its reporters, are reached through the layer).
 */
const PUBLIC_VITEST_ENTRY_POINTS: { specifier: string; typesOnly: boolean }[] = [
  { specifier: 'vitest', typesOnly: false },
  { specifier: 'vitest/browser', typesOnly: false },
  { specifier: 'vitest/config', typesOnly: false },
  { specifier: 'vitest/node', typesOnly: true },
  { specifier: '@vitest/browser-playwright', typesOnly: false },
  { specifier: 'vite', typesOnly: false },
]

/** `Reflect.get(x, …)` and its kin on anything but the process-wide slots (globalThis, process, window). */
const REFLECTIVE_ACCESS = /\bReflect\.(?:get|set|apply|has|ownKeys|defineProperty|deleteProperty|getOwnPropertyDescriptor)\(\s*(?!globalThis\b|process\b|window\b)[^,)]+/g
/** A member whose name starts with `_` (Vitest marks its internals so), read as `x._name` or `x['_name']`. */
const UNDERSCORE_MEMBER = /[\w$)\]]\s*(?:\?\.|\.)\s*_[A-Za-z]\w*|\[\s*['"`]_[A-Za-z]\w*['"`]\s*\]/g

interface ImportEdge {
  /** Repository-relative path of the importing file. */
  from: string
  /** The specifier as written. */
  specifier: string
  /** Repository-relative path of the target, for a relative specifier. */
  target: string | undefined
  /** `import type` / `export type`: erased at build time, loads nothing. */
  isTypeOnly: boolean
}

async function sourceFiles(folders: readonly string[]): Promise<string[]> {
  const files: string[] = []
  for (const folder of folders) {
    const entries = await readdir(join(ROOT, folder), { withFileTypes: true, recursive: true })
    for (const entry of entries) if (entry.isFile() && entry.name.endsWith('.ts')) files.push(relative(ROOT, join(entry.parentPath, entry.name)))
  }
  return files.sort()
}

const STATIC_IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

async function importsOf(file: string): Promise<ImportEdge[]> {
  const text = await readFile(join(ROOT, file), 'utf8')
  const edge = (specifier: string, isTypeOnly: boolean): ImportEdge => ({
    from: file,
    specifier,
    isTypeOnly,
    target: specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier.replace(/\?.*$/, ''))) : undefined,
  })
  return [
    ...[...text.matchAll(STATIC_IMPORT)].map(match => edge(match[2]!, match[1] !== undefined)),
    ...[...text.matchAll(DYNAMIC_IMPORT)].map(match => edge(match[1]!, false)),
  ]
}

function isNodeOnly(specifier: string): boolean {
  return specifier.startsWith('node:') || isBuiltin(specifier) || NODE_ONLY_PACKAGES.some(name => specifier === name || specifier.startsWith(`${name}/`))
}

/** `src/<folder>` for a file under src/, else the top-level folder. */
function topFolder(path: string): string {
  const [first, second] = path.split('/')
  return first === 'src' ? `src/${second}` : first!
}

function show(edge: ImportEdge): string {
  return `${edge.from} imports ${edge.specifier}`
}

describe('folder boundaries', () => {
  it('page code, and everything it imports at run time, imports no Node module, Playwright or Vite', async () => {
    const pending = await sourceFiles(PAGE_FOLDERS)
    const seen = new Set(pending)
    const offenders: string[] = []
    while (pending.length > 0) {
      const file = pending.pop()!
      for (const edge of await importsOf(file)) {
        if (edge.isTypeOnly) continue
        if (isNodeOnly(edge.specifier)) offenders.push(show(edge))
        if (edge.target?.endsWith('.ts') === true && !seen.has(edge.target)) {
          seen.add(edge.target)
          pending.push(edge.target)
        }
      }
    }
    expect(offenders).toEqual([])
    // The walk reaches the page side of the harness and the episode codec through the suite.
    expect([...seen]).toEqual(expect.arrayContaining(['src/harness/index.ts', 'src/episode/index.ts', 'src/evaluate/rows/index.ts']))
  })

  it('src/ imports nothing from Vitest (plugin/, suites/ and reporters/ are the adapters)', async () => {
    const offenders: string[] = []
    for (const file of await sourceFiles(['src'])) {
      for (const edge of await importsOf(file)) if (/^(vitest|@vitest\/)/.test(edge.specifier)) offenders.push(show(edge))
    }
    expect(offenders).toEqual([])
  })

  it('only plugin/vitest-compat imports Vitest or Vite beyond their public entry points (value imports of vitest/node included)', async () => {
    const offenders: string[] = []
    for (const file of await sourceFiles(['src', 'plugin', 'reporters', 'suites'])) {
      if (file.startsWith(`${COMPAT_FOLDER}/`)) continue
      for (const edge of await importsOf(file)) {
        if (!/^(vitest|vite|@vitest\/)($|\/)/.test(edge.specifier)) continue
        const entry = PUBLIC_VITEST_ENTRY_POINTS.find(one => one.specifier === edge.specifier)
        if (entry === undefined || (entry.typesOnly && !edge.isTypeOnly)) offenders.push(show(edge))
      }
    }
    expect(offenders).toEqual([])
  })

  it('touches no Vitest object by `_`-prefixed or reflective access outside plugin/vitest-compat', async () => {
    const offenders: string[] = []
    for (const file of await sourceFiles(['plugin', 'reporters', 'suites'])) {
      if (file.startsWith(`${COMPAT_FOLDER}/`)) continue
      const text = await readFile(join(ROOT, file), 'utf8')
      for (const match of text.matchAll(REFLECTIVE_ACCESS)) offenders.push(`${file}: ${match[0]}`)
      for (const match of text.matchAll(UNDERSCORE_MEMBER)) offenders.push(`${file}: ${match[0]}`)
    }
    expect(offenders).toEqual([])
  })

  it('finds the layer\'s own uses of internals (the scan above is not blind)', async () => {
    const text = await readFile(join(ROOT, COMPAT_FOLDER, 'internals.ts'), 'utf8')
    expect([...text.matchAll(REFLECTIVE_ACCESS)].length).toBeGreaterThan(3)
    expect('project._openBrowserPage(id)'.match(UNDERSCORE_MEMBER)).not.toBeNull()
  })

  it('enters another src/ folder only through an index.ts (its own, or a documented sub-entry such as harness/node/index.ts)', async () => {
    const offenders: string[] = []
    for (const file of await sourceFiles(['src', 'plugin', 'reporters', 'suites'])) {
      for (const edge of await importsOf(file)) {
        const target = edge.target
        if (target === undefined || !target.startsWith('src/') || topFolder(target) === topFolder(file)) continue
        if (target.endsWith('/index.ts') || INDEX_EXCEPTIONS.some(exception => exception.target.test(target))) continue
        offenders.push(show(edge))
      }
    }
    expect(offenders).toEqual([])
  })

  it('lists each exception with its reason', () => {
    for (const exception of INDEX_EXCEPTIONS) expect(exception.reason.length).toBeGreaterThan(40)
  })
})
