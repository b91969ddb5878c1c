// Folder boundaries (STYLE.md rules 1–3), checked statically on every import and export-from statement: page code
// reaches no Node module, src/ never imports Vitest, a src/ folder is entered only through an index.ts, no import
// cycle exists between files or folders, imports go down the layers only, and scoring launches nothing.
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

/** Folders whose import graph must be free of cycles and follow LAYERS. */
const GRAPH_ROOTS = ['src', 'plugin', 'reporters', 'suites']

interface Layer {
  /** What the layer holds, for failure messages. */
  name: string
  /** `src/<folder>` (its sub-folders included), `plugin/vitest-compat`, or a top-level folder. */
  folders: readonly string[]
}

/**
 * The layers of GRAPH_ROOTS, lowest first (docs/architecture.md section 1). A folder imports only folders of lower
 * layers, type-only and dynamic imports included; folders of one layer do not import each other unless PEER_IMPORTS
 * says so. Derived from today's imports: before moving a folder down, check who it imports; up, who imports it.
 */
const LAYERS: readonly Layer[] = [
  { name: 'kit', folders: ['src/shared'] },
  { name: 'formats, run records, scoring maths, tool surfaces', folders: ['src/package', 'src/episode', 'src/runs', 'src/scoring', 'src/webmcp', 'src/mcp'] },
  { name: 'world runtime, agents', folders: ['src/world', 'src/agents'] },
  { name: 'renderer, model requests', folders: ['src/render', 'src/llm'] },
  { name: 'headless driver', folders: ['src/headless'] },
  { name: 'evaluation', folders: ['src/evaluate'] },
  { name: 'reports, one sample end to end', folders: ['src/report', 'src/harness'] },
  // Node-only settings: constants from agents/sandbox, harness/node, scoring; read by the CLI and the adapters.
  { name: 'settings', folders: ['src/settings'] },
  { name: 'command line', folders: ['src/cli'] },
  // Below the adapters that use it: the one folder touching Vitest internals (section 1).
  { name: 'Vitest compatibility', folders: ['plugin/vitest-compat'] },
  { name: 'reporters', folders: ['reporters'] },
  { name: 'plugin', folders: ['plugin'] },
  { name: 'block suite', folders: ['suites'] },
]

/** Imports allowed between two folders of the same layer, each with its reason. None today: keep it that way. */
const PEER_IMPORTS: readonly { from: string; to: string; reason: string }[] = []

/** The Node modules src/scoring may never import: it computes, it launches no process, browser or page server. */
const SCORING_FORBIDDEN = ['node:child_process', 'child_process', ...NODE_ONLY_PACKAGES]

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

/** The layer unit of a file: its `src/<folder>`, `plugin/vitest-compat`, or its top-level folder. */
function layerUnit(path: string): string {
  return path.startsWith(`${COMPAT_FOLDER}/`) ? COMPAT_FOLDER : topFolder(path)
}

/** A resolved import between two files of GRAPH_ROOTS. */
interface FileEdge {
  from: string
  to: string
}

let graphOnce: Promise<FileEdge[]> | undefined

/**
 * Every import between files of GRAPH_ROOTS (value, type-only, dynamic, export-from), each pair once; read once per
 * run, shared by the graph tests. A specifier without an extension (the AssemblyScript kernels) resolves to its `.ts`.
 */
function importGraph(): Promise<FileEdge[]> {
  graphOnce ??= (async () => {
    const files = await sourceFiles(GRAPH_ROOTS)
    const known = new Set(files)
    const edges = new Map<string, FileEdge>()
    for (const file of files) {
      for (const edge of await importsOf(file)) {
        if (edge.target === undefined) continue
        const to = known.has(edge.target) ? edge.target : known.has(`${edge.target}.ts`) ? `${edge.target}.ts` : undefined
        if (to !== undefined) edges.set(`${file}\0${to}`, { from: file, to })
      }
    }
    return [...edges.values()]
  })()
  return graphOnce
}

function adjacency(edges: readonly FileEdge[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const { from, to } of edges) {
    graph.set(from, [...graph.get(from) ?? [], to])
    if (!graph.has(to)) graph.set(to, [])
  }
  return graph
}

/**
 * One cycle per strongly connected component of `graph` (Tarjan), a self-import included: the shortest path from the
 * component's first node (code-point order) back to itself, as `[a, b, a]`; cycles in the order of their first nodes.
 */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const visit = (node: string): void => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)?.includes(node) === true) components.push(component.sort())
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return components.sort((a, b) => (a[0]! < b[0]! ? -1 : 1)).map(component => shortestCycle(graph, new Set(component), component[0]!))
}

/** Breadth-first from `start` inside its component until an edge returns to it: `[start, …, start]`. */
function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, members: ReadonlySet<string>, start: string): string[] {
  const previous = new Map<string, string>()
  const queue = [start]
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at]!
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const path = [node]
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!)
        return [...path, start]
      }
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node)
        queue.push(next)
      }
    }
  }
  throw new Error(`${start} is in a cycle but no path returns to it (findCycles is broken)`)
}

/** `a → b → a`, as the failure message names a cycle. */
function showCycle(cycle: readonly string[]): string {
  return cycle.join(' → ')
}

/** The folder-level cycles of `edges` (layer units), each with the file imports that make every step. */
function folderCycles(edges: readonly FileEdge[]): string[] {
  const witnesses = new Map<string, FileEdge>()
  const folderEdges: FileEdge[] = []
  for (const edge of edges) {
    const from = layerUnit(edge.from)
    const to = layerUnit(edge.to)
    if (from === to || witnesses.has(`${from}\0${to}`)) continue
    witnesses.set(`${from}\0${to}`, edge)
    folderEdges.push({ from, to })
  }
  return findCycles(adjacency(folderEdges)).map((cycle) => {
    const steps = cycle.slice(1).map((to, step) => witnesses.get(`${cycle[step]!}\0${to}`)!)
    return `${showCycle(cycle)} (${steps.map(edge => `${edge.from} imports ${edge.to}`).join('; ')})`
  })
}

/** Every edge of `edges` that goes up `layers`, or sideways without a PEER_IMPORTS entry, or leaves the table. */
function layeringViolations(edges: readonly FileEdge[], layers: readonly Layer[]): string[] {
  const rank = new Map(layers.flatMap((layer, at) => layer.folders.map(folder => [folder, at] as const)))
  const violations: string[] = []
  for (const { from, to } of edges) {
    const fromUnit = layerUnit(from)
    const toUnit = layerUnit(to)
    if (fromUnit === toUnit) continue
    const fromRank = rank.get(fromUnit)
    const toRank = rank.get(toUnit)
    if (fromRank === undefined || toRank === undefined) {
      violations.push(`${from} imports ${to}: ${fromRank === undefined ? fromUnit : toUnit} is in no layer (add it to LAYERS)`)
    } else if (toRank > fromRank) {
      violations.push(`${from} (${layers[fromRank]!.name}) imports ${to} (${layers[toRank]!.name}), a higher layer`)
    } else if (toRank === fromRank && !PEER_IMPORTS.some(peer => peer.from === fromUnit && peer.to === toUnit)) {
      violations.push(`${from} imports ${to}: ${fromUnit} and ${toUnit} share the layer "${layers[fromRank]!.name}"`)
    }
  }
  return violations
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
    for (const peer of PEER_IMPORTS) expect(peer.reason.length).toBeGreaterThan(40)
  })
})

describe('import graph', () => {
  it('has no cycle between files (type-only, dynamic and export-from imports included)', async () => {
    expect(findCycles(adjacency(await importGraph())).map(showCycle)).toEqual([])
  })

  it('has no cycle between folders (a src/ sub-folder counts as its src/ folder)', async () => {
    expect(folderCycles(await importGraph())).toEqual([])
  })

  it('imports only from lower layers (LAYERS), and every folder has its layer', async () => {
    const edges = await importGraph()
    expect(layeringViolations(edges, LAYERS)).toEqual([])
    const placed = new Set(LAYERS.flatMap(layer => layer.folders))
    const units = new Set((await sourceFiles(GRAPH_ROOTS)).map(layerUnit))
    expect([...units].filter(unit => !placed.has(unit))).toEqual([])
    // src/shared is the leaf: it imports no other folder.
    expect(edges.filter(edge => layerUnit(edge.from) === 'src/shared' && layerUnit(edge.to) !== 'src/shared')).toEqual([])
  })

  it('src/scoring starts no process, browser or page server; its core (outside workers/ and gpu/) imports no Node module', async () => {
    const offenders: string[] = []
    for (const file of await sourceFiles(['src/scoring'])) {
      const isCore = !file.startsWith('src/scoring/workers/') && !file.startsWith('src/scoring/gpu/')
      for (const edge of await importsOf(file)) {
        const isForbidden = SCORING_FORBIDDEN.some(name => edge.specifier === name || edge.specifier.startsWith(`${name}/`))
        if (isForbidden || (isCore && !edge.isTypeOnly && isNodeOnly(edge.specifier))) offenders.push(show(edge))
      }
    }
    expect(offenders).toEqual([])
  })

  it('finds a planted cycle, a folder cycle and an upward import (the scans above are not blind)', async () => {
    const planted = adjacency([
      { from: 'src/a/x.ts', to: 'src/b/y.ts' },
      { from: 'src/b/y.ts', to: 'src/a/x.ts' },
      { from: 'src/b/y.ts', to: 'src/c/z.ts' },
      { from: 'src/c/z.ts', to: 'src/c/z.ts' },
    ])
    expect(findCycles(planted).map(showCycle)).toEqual(['src/a/x.ts → src/b/y.ts → src/a/x.ts', 'src/c/z.ts → src/c/z.ts'])
    expect(folderCycles([{ from: 'src/agents/cli/run.ts', to: 'src/mcp/index.ts' }, { from: 'src/mcp/relay.ts', to: 'src/agents/index.ts' }]))
      .toEqual(['src/agents → src/mcp → src/agents (src/agents/cli/run.ts imports src/mcp/index.ts; src/mcp/relay.ts imports src/agents/index.ts)'])
    expect(layeringViolations([
      { from: 'src/scoring/gpu/backend.ts', to: 'src/headless/index.ts' },
      { from: 'src/package/open-package.ts', to: 'src/runs/index.ts' },
      { from: 'src/harness/index.ts', to: 'src/world/index.ts' },
      { from: 'src/nowhere/x.ts', to: 'src/shared/errors.ts' },
    ], LAYERS)).toEqual([
      'src/scoring/gpu/backend.ts (formats, run records, scoring maths, tool surfaces) imports src/headless/index.ts (headless driver), a higher layer',
      'src/package/open-package.ts imports src/runs/index.ts: src/package and src/runs share the layer "formats, run records, scoring maths, tool surfaces"',
      'src/nowhere/x.ts imports src/shared/errors.ts: src/nowhere is in no layer (add it to LAYERS)',
    ])
    // The real graph holds the edges the checks reason about: dynamic imports and the AssemblyScript kernels' bare specifiers.
    const edges = await importGraph()
    expect(edges).toEqual(expect.arrayContaining([
      { from: 'src/evaluate/scorer/create-scorer.ts', to: 'src/headless/index.ts' },
      { from: 'src/scoring/kernel/assembly/icp-kernel.ts', to: 'src/scoring/kernel/assembly/kd-search.ts' },
    ]))
  })
})

/**
 * The three questions a newcomer asks first, each answered by one place (docs/architecture.md section 4): where a
 * sample's score is computed (src/evaluate: nothing else calls the scoring maths), where an agent is started
 * (src/agents, called only by the harness's launcher), and where resume decides what to skip (run-rules.ts).
 */
const OWNERS = {
  /** Names of src/scoring that compute a score (or pick the device that does): used only by src/evaluate. */
  scoring: {
    owner: 'src/evaluate/',
    names: ['scoreSample', 'planSample', 'finishSample', 'prepareSample', 'runStarts', 'ScoringPool', 'scoreSamplesOnDevice', 'DeviceBatchScorer', 'decideBackend'],
    /** Other users of those names, each with its reason: none of them scores a sample. */
    allowed: [{
      file: 'src/cli/commands/fixtures.ts',
      reason: 'the synthetic package generator groups equivalent parts by their shape distance, computed with the scoring worker pool; it prepares a package and scores no sample',
    }],
  },
  /** Names of src/agents that start an agent process: used only by the harness's launcher. */
  agentStart: {
    owner: 'src/harness/node/agent-launcher.ts',
    names: ['runCliAgentOnRelay', 'runExternalAgentOnRelay', 'runCliAgent', 'runExternalAgent', 'runAgentProcess', 'containedLaunch'],
  },
  /** The resume decision: defined in run-rules.ts alone. */
  resume: {
    owner: 'src/harness/node/run-rules.ts',
    names: ['needsRun', 'selectResumed', 'resumedRecordOf', 'decideSample'],
  },
} as const

/** Outside src/agents, the files that may start a child process, each with its reason (they start no agent). */
const CHILD_PROCESS_USERS: readonly { file: string; reason: string }[] = [
  { file: 'src/cli/commands/doctor.ts', reason: '`awb doctor` runs `<cli> --version` and the sandbox probe\'s checks to report what a run would find' },
  { file: 'src/runs/provenance.ts', reason: 'run.json records the git commit and tool versions of the run, read with `git rev-parse` and friends' },
]

const NAMED_IMPORT = /^\s*(?:import|export)\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm

/** `{ a, b as c, type d }` → the imported names (`a`, `b`, and `d` when `withTypes`). */
function importedNames(list: string, withTypes: boolean): string[] {
  return list.split(',').map(part => part.trim()).filter(part => part !== '' && (withTypes || !part.startsWith('type ')))
    .map(part => part.replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim())
}

/** Every value import of one of `names` from a module under `from` (a path prefix), by a file outside `owner`. */
async function foreignUses(names: readonly string[], from: string, owner: string, allowed: readonly { file: string }[] = []): Promise<string[]> {
  const offenders: string[] = []
  for (const file of await sourceFiles(GRAPH_ROOTS)) {
    if (file.startsWith(owner) || file.startsWith(from) || allowed.some(user => user.file === file)) continue
    const text = await readFile(join(ROOT, file), 'utf8')
    for (const match of text.matchAll(NAMED_IMPORT)) {
      if (match[1] !== undefined || !match[3]!.startsWith('.')) continue
      const target = relative(ROOT, resolve(ROOT, dirname(file), match[3]!))
      if (!target.startsWith(from)) continue
      for (const name of importedNames(match[2]!, false)) if (names.includes(name)) offenders.push(`${file} imports ${name} from ${target}`)
    }
    // A dynamic import reaches every export: allowed only of modules that export none of the names.
    for (const match of text.matchAll(DYNAMIC_IMPORT)) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), match[1]!))
      if (target.startsWith(from) && names.some(name => new RegExp(`\\b${name}\\b`).test(text))) offenders.push(`${file} imports ${target} dynamically and names one of ${names.join(', ')}`)
    }
  }
  return offenders
}

describe('one place answers each newcomer question', () => {
  it('a sample\'s score is computed in src/evaluate: nothing else imports the scoring maths', async () => {
    expect(await foreignUses(OWNERS.scoring.names, 'src/scoring/', OWNERS.scoring.owner, OWNERS.scoring.allowed)).toEqual([])
    for (const user of OWNERS.scoring.allowed) expect(user.reason.length).toBeGreaterThan(40)
  })

  it('an agent is started by src/agents, and only the harness\'s launcher asks it to', async () => {
    expect(await foreignUses(OWNERS.agentStart.names, 'src/agents/', OWNERS.agentStart.owner)).toEqual([])
    const spawners: string[] = []
    for (const file of await sourceFiles(GRAPH_ROOTS)) {
      if (file.startsWith('src/agents/') || CHILD_PROCESS_USERS.some(user => user.file === file)) continue
      for (const edge of await importsOf(file)) if (/^(node:)?child_process$/.test(edge.specifier)) spawners.push(show(edge))
    }
    expect(spawners).toEqual([])
    for (const user of CHILD_PROCESS_USERS) expect(user.reason.length).toBeGreaterThan(40)
  })

  it('resume decides what to skip in run-rules.ts alone', async () => {
    const definitions: string[] = []
    for (const file of await sourceFiles(GRAPH_ROOTS)) {
      const text = await readFile(join(ROOT, file), 'utf8')
      for (const name of OWNERS.resume.names) if (new RegExp(`^export (?:async )?function ${name}\\b`, 'm').test(text)) definitions.push(`${file}: ${name}`)
    }
    expect(definitions.sort()).toEqual(OWNERS.resume.names.map(name => `${OWNERS.resume.owner}: ${name}`).sort())
    // Outside src/harness/node (which decides), only tests may call the decision: the CLI's status reads chain states.
    expect(await foreignUses(OWNERS.resume.names, 'src/harness/node/', 'src/harness/node/')).toEqual([])
  })

  it('finds a foreign use (the scan above is not blind)', () => {
    expect(importedNames('scoreSample, type SampleInput, ScoringPool as Pool', false)).toEqual(['scoreSample', 'ScoringPool'])
    const statement = "import { ScoringPool } from '../scoring/workers/index.ts'"
    const [match] = [...statement.matchAll(NAMED_IMPORT)]
    expect(match?.[2]?.trim()).toBe('ScoringPool')
  })
})
