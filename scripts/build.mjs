// `npm run build` (and prepack): compiles the package to dist/ with tsc, copies the files tsc does not emit (the
// pages' HTML, pointed at the compiled scripts, and JSON data), then swaps the new dist/ in, so an interrupted build
// never leaves a half-written dist/ behind. Plain Node, no TypeScript loader: it runs wherever `npm pack` runs.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const staging = join(root, 'dist.building')
const target = join(root, 'dist')
/** Source folders whose non-TypeScript files the compiled modules read next to themselves. */
const ASSET_FOLDERS = ['src', 'plugin', 'suites', 'reporters', 'fixtures/generator']
const ASSET_FILE = /\.(html|json)$/

rmSync(staging, { recursive: true, force: true })
// Through package.json's `bin`: TypeScript 7 exports no `typescript/bin/tsc` subpath (5.x has no `exports` at all).
const typescriptManifest = createRequire(import.meta.url).resolve('typescript/package.json')
const tsc = join(dirname(typescriptManifest), JSON.parse(readFileSync(typescriptManifest, 'utf8')).bin.tsc)
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', staging], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] })

let copied = 0
for (const folder of ASSET_FOLDERS) {
  for (const file of walk(join(root, folder))) {
    if (!ASSET_FILE.test(file)) continue
    const out = join(staging, relative(root, file))
    mkdirSync(dirname(out), { recursive: true })
    if (file.endsWith('.html')) {
      // <script type="module" src="./page.ts"> serves the compiled page.js in the package.
      writeFileSync(out, readFileSync(file, 'utf8').replace(/(<script[^>]*\bsrc="[^"]+)\.ts"/g, '$1.js"'))
    } else {
      cpSync(file, out)
    }
    copied++
  }
}
// The report page's script, bundled once here instead of at the end of every run of an installed package.
const reportApp = join(staging, 'src', 'report', 'html')
const { bundle, PREBUILT_REPORT_APP } = await import(pathToFileURL(join(reportApp, 'bundle-app.js')).href)
writeFileSync(join(reportApp, PREBUILT_REPORT_APP), (await bundle()).code)

rmSync(target, { recursive: true, force: true })
renameSync(staging, target)
console.error(`build: dist/ written (${copied} asset files copied)`)

function* walk(dir) {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !(dir.endsWith('kernel') && entry.name === 'assembly')) yield* walk(path)
    } else {
      yield path
    }
  }
}
