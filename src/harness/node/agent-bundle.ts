// Node only: bundles the code that page agents run in their realm (src/agents/realm), with Vite's public build()
// API, in memory, once per run and entry. The page never imports an agent from the Vite server: it gets this code in
// the sample's start response and evaluates it inside a sandboxed frame.
import { isAbsolute, join } from 'node:path'
import { packageModule } from '../../shared/package-root.ts'
import { AgentRealmError, REALM_ENTRIES } from '../../agents/realm/index.ts'
import { createBundleReadGuard, refuseProtectedReads, type BundleReadGuard } from './bundle-read-guard.ts'

/** What a realm runs: the replay and idle agents, the API agents' loop, or a user's agent module (absolute path). */
export type RealmEntry = { kind: 'built-in' } | { kind: 'api' } | { kind: 'module'; path: string }

export interface AgentRealmBundler {
  /**
   * The realm's code for `entry`: one ES module whose export `start(port)` the realm's bootstrap calls. Bundled once
   * per entry; a failure is kept too (the module would fail the same way for every sample). Rejects with an
   * AgentRealmError (AGENT_REALM_BUNDLE_FAILED, AGENT_REALM_FORBIDDEN_IMPORT).
   */
  code(entry: RealmEntry): Promise<string>
}

export interface AgentRealmBundlerOptions {
  /** The project root: a user's module is resolved, and its `.env` files read, as the test server would. */
  root: string
  /**
   * The folders no bundle may read from (absolute): the package, the runs, the demonstrations, the fixtures and their
   * generator (plugin/serve-guard.ts `runProtectedDirs`). Vite in Node reads any file a module names, so an agent
   * module that imports `…/evaluation.json?raw` would carry the answers into its realm: such a module is refused
   * (defence:bundle-reads).
   */
  protectedDirs: readonly string[]
  /**
   * Hears the files each bundle was built from (absolute paths: the agent module and everything it imports, the
   * realm's own code included; no virtual modules), so that watch mode can rerun the samples when one changes.
   */
  onBundled?: ((files: readonly string[]) => void) | undefined
}

/** The file name of the generated entry around a user's module (it exists only in the build; Vite resolves it in the root). */
const MODULE_ENTRY = '__awb_agent_realm_entry__.js'

export function createAgentRealmBundler(options: AgentRealmBundlerOptions): AgentRealmBundler {
  const cache = new Map<string, Promise<string>>()
  const guard = createBundleReadGuard(options.protectedDirs)
  return {
    code(entry) {
      const key = entry.kind === 'module' ? `module:${entry.path}` : entry.kind
      let code = cache.get(key)
      if (code === undefined) {
        code = bundle(options.root, entry, guard).then(({ code, files }) => {
          options.onBundled?.(files)
          return code
        })
        cache.set(key, code)
      }
      return code
    },
  }
}

async function bundle(root: string, entry: RealmEntry, guard: BundleReadGuard): Promise<{ code: string; files: string[] }> {
  const vite = await import('vite')
  const moduleEntryPath = join(root, MODULE_ENTRY)
  let output: Awaited<ReturnType<typeof vite.build>>
  try {
    output = await vite.build({
      root,
      configFile: false,
      // As the test server: `import.meta.env` carries the project's VITE_* variables and mode `test`.
      mode: 'test',
      logLevel: 'silent',
      publicDir: false,
      resolve: {
        // The package's `./agent` export, also from a checkout (where dist/ may not exist): the realm's own copy.
        alias: [{ find: /^assembly-world-bench\/agent$/, replacement: packageModule('src/agents/define-agent.ts') }],
      },
      // A browser has no `process`: libraries that read NODE_ENV get the value any built bundle gives them.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      plugins: [refuseProtectedReads(guard, root), refuseVitestImports(), ...(entry.kind === 'module' ? [moduleEntry(moduleEntryPath, entry.path)] : [])],
      // A worker (`?worker`, `?sharedworker`, `new Worker(new URL(…, import.meta.url))`) is bundled apart, with these
      // plugins only (Vite's default is none): without the guard here, a worker's imports read protected files freely.
      worker: { format: 'es', plugins: () => [refuseProtectedReads(guard, root), refuseVitestImports()] },
      build: {
        write: false,
        minify: false,
        sourcemap: false,
        emptyOutDir: false,
        copyPublicDir: false,
        reportCompressedSize: false,
        target: 'es2022',
        lib: {
          entry: entry.kind === 'module' ? moduleEntryPath : packageModule(entry.kind === 'api' ? REALM_ENTRIES.api : REALM_ENTRIES.builtIn),
          formats: ['es'],
          fileName: () => 'agent-realm.js',
        },
        // One chunk: the realm evaluates a single blob, so a module's own dynamic imports are inlined (the option's
        // name differs between Rolldown, Vite 8's bundler, and Rollup).
        rollupOptions: { output: (isRolldown(vite) ? { codeSplitting: false } : { inlineDynamicImports: true }) as object },
      },
    })
  } catch (cause) {
    if (cause instanceof AgentRealmError) throw cause
    const forbidden = messageOf(cause).match(/AGENT_REALM_FORBIDDEN_IMPORT: (.*)/)
    if (forbidden !== null) throw new AgentRealmError('AGENT_REALM_FORBIDDEN_IMPORT', forbidden[1]!, { cause })
    // The module's path is not repeated here: the sample's error names the module (moduleLoadFailure).
    throw new AgentRealmError('AGENT_REALM_BUNDLE_FAILED', messageOf(cause), { cause })
  }
  for (const result of Array.isArray(output) ? output : [output]) {
    if (!('output' in result)) continue
    const chunks = result.output.filter(item => item.type === 'chunk')
    const chunk = chunks[0]
    if (chunks.length === 1 && chunk !== undefined && chunk.type === 'chunk') return { code: chunk.code, files: bundleInputs(chunk.moduleIds, moduleEntryPath) }
    throw new AgentRealmError('AGENT_REALM_BUNDLE_FAILED', `Vite produced ${chunks.length} chunks for the agent realm; it must be one`)
  }
  throw new AgentRealmError('AGENT_REALM_BUNDLE_FAILED', 'Vite produced no script for the agent realm')
}

/** The files a bundle was built from: its modules less virtual ones (`\0…`) and the generated entry. */
function bundleInputs(moduleIds: readonly string[], moduleEntryPath: string): string[] {
  return moduleIds.filter(id => id !== moduleEntryPath && !id.startsWith('\0') && isAbsolute(id)).map(id => id.split('?')[0]!)
}

/**
 * The entry around a user's module: the console capture first (so the module's top-level logging is kept), then the
 * module, then the realm's port protocol, which checks the module's default export when the run starts.
 */
function moduleEntry(entryPath: string, path: string) {
  const code = [
    `import ${JSON.stringify(packageModule(REALM_ENTRIES.consoleCapture))}`,
    `import * as agentModule from ${JSON.stringify(path)}`,
    `import { startModuleRealm } from ${JSON.stringify(packageModule(REALM_ENTRIES.module))}`,
    'export function start(port) { startModuleRealm(port, agentModule) }',
  ].join('\n')
  return {
    name: 'awb-agent-realm-module-entry',
    resolveId: (id: string) => (id === entryPath ? id : undefined),
    load: (id: string) => (id === entryPath ? code : undefined),
  }
}

/**
 * Vitest lives in the tester page, not in the realm: a module importing it would fail there, late and obscurely.
 * It fails here, with the reason.
 */
function refuseVitestImports() {
  return {
    name: 'awb-agent-realm-refuse-vitest',
    enforce: 'pre' as const,
    resolveId(id: string, importer: string | undefined) {
      if (!/^(vitest|@vitest\/[^/]+)(\/|$)/.test(id)) return undefined
      throw new Error(`AGENT_REALM_FORBIDDEN_IMPORT: ${importer ?? 'the agent module'} imports ${id}: page agents run in their own realm, with the tools, prompt and pages their context gives them, and cannot reach Vitest`)
    },
  }
}

function isRolldown(vite: object): boolean {
  return typeof (vite as { rolldownVersion?: unknown }).rolldownVersion === 'string'
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
