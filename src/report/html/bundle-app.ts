// Node only: the report page's script (three.js included) as one minified IIFE, so the page can inline it and open
// from file:// (no module imports across files there). Bundling it costs about a CPU second, at the end of every run:
// an installed package reads the copy `npm run build` bundled beside this module; a checkout bundles with Vite and
// keeps the result on disk, reused while every file it was built from (its modules, three.js, this file) and Vite's
// version are unchanged, so a reuse gives the very bytes a fresh bundle would. Cached per process too.
import { createHash } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeFileAtomic } from '../../shared/atomic-write.ts'
import { isNotFoundError } from '../../shared/fs-errors.ts'
import { IS_COMPILED, PACKAGE_ROOT } from '../../shared/package-root.ts'
import { ReportError } from '../errors.ts'

// The compiled package bundles the compiled entry; a checkout bundles the source.
const APP_ENTRY = fileURLToPath(new URL(IS_COMPILED ? './app/report-app.js' : './app/report-app.ts', import.meta.url))
/** The script `npm run build` writes beside the compiled module (scripts/build.mjs). */
export const PREBUILT_REPORT_APP = 'report-app.bundle.js'
/** A checkout's bundle and what it was built from. */
const CHECKOUT_CACHE = join(PACKAGE_ROOT, 'node_modules', '.cache', 'assembly-world-bench', 'report-app.json')

interface CachedBundle {
  vite: string
  /** SHA-256 of every file the bundle was built from, by absolute path. */
  inputs: Record<string, string>
  code: string
}

let cached: Promise<string> | undefined

/** The minified page script. Throws `ReportError` (REPORT_BUILD_FAILED) when Vite cannot bundle it. */
export function bundleReportApp(): Promise<string> {
  cached ??= load().catch((cause: unknown) => {
    cached = undefined
    throw new ReportError('REPORT_BUILD_FAILED', `could not bundle the report page script (${cause instanceof Error ? cause.message : String(cause)}); run \`npm ci\` so vite and three are installed`, { file: APP_ENTRY, cause })
  })
  return cached
}

async function load(): Promise<string> {
  if (IS_COMPILED) {
    const prebuilt = await readFile(fileURLToPath(new URL(`./${PREBUILT_REPORT_APP}`, import.meta.url)), 'utf8').catch((error: unknown) => {
      // A dist/ built before the prebuilt script existed: bundle it here, as a checkout does.
      if (isNotFoundError(error)) return undefined
      throw error
    })
    return prebuilt ?? (await bundle()).code
  }
  return cachedBundle(CHECKOUT_CACHE)
}

/**
 * The bundle kept in `cacheFile` when Vite and every file it was built from are as they were, else a fresh one, which
 * is kept there for the next run.
 */
export async function cachedBundle(cacheFile: string): Promise<string> {
  const vite = await viteVersion()
  const reused = await reusable(cacheFile, vite)
  if (reused !== undefined) return reused
  const fresh = await bundle()
  const inputs: Record<string, string> = {}
  for (const file of [...fresh.inputs, fileURLToPath(import.meta.url)]) inputs[file] = await sha256Of(file)
  await mkdir(dirname(cacheFile), { recursive: true })
  await writeFileAtomic(cacheFile, JSON.stringify({ vite, inputs, code: fresh.code } satisfies CachedBundle))
  return fresh.code
}

/** The cached bundle when Vite and every input are as they were; undefined otherwise (or unreadable). */
async function reusable(cacheFile: string, vite: string): Promise<string | undefined> {
  let entry: CachedBundle
  try {
    entry = JSON.parse(await readFile(cacheFile, 'utf8')) as CachedBundle
  } catch {
    // No cache yet, or a torn one: bundle afresh and write it again.
    return undefined
  }
  if (entry.vite !== vite || typeof entry.code !== 'string' || Object.keys(entry.inputs ?? {}).length === 0) return undefined
  for (const [file, hash] of Object.entries(entry.inputs)) {
    if ((await sha256Of(file).catch(() => undefined)) !== hash) return undefined
  }
  return entry.code
}

/** Bundles the page script with Vite; also the files it was built from (virtual modules aside: Vite's version covers them). */
export async function bundle(): Promise<{ code: string; inputs: string[] }> {
  const { build: viteBuild } = await import('vite')
  const output = await viteBuild({
    root: PACKAGE_ROOT,
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      emptyOutDir: false,
      lib: { entry: APP_ENTRY, formats: ['iife'], name: 'awbReportApp', fileName: () => 'report-app.js' },
    },
  })
  const results = Array.isArray(output) ? output : [output]
  for (const result of results) {
    if (!('output' in result)) continue
    const chunk = result.output.find(item => item.type === 'chunk')
    if (chunk !== undefined && chunk.type === 'chunk') {
      return { code: chunk.code, inputs: chunk.moduleIds.filter(id => !id.startsWith('\0')).map(id => id.split('?')[0]!) }
    }
  }
  throw new Error('Vite produced no script chunk')
}

/** Vite's and its bundler's versions, from their package.json: importing Vite alone costs half a second. */
async function viteVersion(): Promise<string> {
  const versionOf = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { version?: string }).version ?? 'unknown'
  const vite = createRequire(import.meta.url).resolve('vite/package.json')
  const bundlers = ['rolldown', 'rollup'].map(name => {
    try {
      return createRequire(vite).resolve(`${name}/package.json`)
    } catch {
      // Not Vite's bundler in this version.
      return undefined
    }
  }).filter(file => file !== undefined)
  return (await Promise.all([vite, ...bundlers].map(versionOf))).join('+')
}

async function sha256Of(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex')
}
