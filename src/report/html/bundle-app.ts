// Node only: bundles the report page's script (three.js included) into one IIFE with Vite, in memory, so the
// page can inline it and open from file:// (no module imports across files there). Cached per process.
import { fileURLToPath } from 'node:url'
import { ReportError } from '../errors.ts'
import { PACKAGE_ROOT } from '../../shared/package-root.ts'

// The compiled package bundles the compiled entry; a checkout bundles the source.
const APP_ENTRY = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './app/report-app.ts' : './app/report-app.js', import.meta.url))

let cached: Promise<string> | undefined

/** The minified page script. Throws `ReportError` (REPORT_BUILD_FAILED) when Vite cannot bundle it. */
export function bundleReportApp(): Promise<string> {
  cached ??= build().catch((cause: unknown) => {
    cached = undefined
    throw new ReportError('REPORT_BUILD_FAILED', `could not bundle the report page script (${cause instanceof Error ? cause.message : String(cause)}); run \`npm ci\` so vite and three are installed`, { file: APP_ENTRY, cause })
  })
  return cached
}

async function build(): Promise<string> {
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
    if (chunk !== undefined && chunk.type === 'chunk') return chunk.code
  }
  throw new Error('Vite produced no script chunk')
}
