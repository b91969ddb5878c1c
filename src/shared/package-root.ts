// Node only: where this package's own files are, whether it runs from a source checkout (TypeScript under src/,
// plugin/, suites/) or installed from its tarball (compiled JavaScript under dist/). Every path to a file the package
// ships (bundled benchmark, block suite, page folders, the `awb` launcher) is built from here, never from `..` chains
// that only hold in one of the two layouts.
import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The name in package.json; the package root is the nearest folder above this module that declares it. */
export const PACKAGE_NAME = 'assembly-world-bench'

interface Manifest { name?: unknown; version?: unknown }

function findPackageRoot(start: string): { root: string; version: string } {
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    const manifest = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : undefined
    if (manifest?.name === PACKAGE_NAME) return { root: dir, version: typeof manifest.version === 'string' ? manifest.version : '0.0.0' }
    if (dirname(dir) === dir) throw new Error(`${PACKAGE_NAME}: no package.json named "${PACKAGE_NAME}" above ${start}; the installation is damaged, reinstall the package`)
  }
}

const found = findPackageRoot(dirname(fileURLToPath(import.meta.url)))
/** The folder holding package.json (the checkout, or node_modules/assembly-world-bench). */
export const PACKAGE_ROOT = found.root
/** This package's version (package.json), for `awb --version` and run records. */
export const PACKAGE_VERSION = found.version

/** True when running the compiled JavaScript (an installed package or a local `npm run build`), false from sources. */
export const IS_COMPILED = import.meta.url.endsWith('.js')

/** The folder holding the package's modules: `PACKAGE_ROOT` from sources, `PACKAGE_ROOT/dist` compiled. */
export const MODULES_ROOT = IS_COMPILED ? join(PACKAGE_ROOT, 'dist') : PACKAGE_ROOT

/**
 * A module of this package by its source path relative to the package root, e.g. `suites/benchmark-block.ts`: the
 * TypeScript file from sources, its compiled `.js` under dist/ when compiled.
 */
export function packageModule(sourcePath: string): string {
  return IS_COMPILED ? join(MODULES_ROOT, sourcePath.replace(/\.ts$/, '.js')) : join(PACKAGE_ROOT, sourcePath)
}

/**
 * The `node_modules` folder an installed copy lies in (its dependencies are hoisted there by npm, or linked beside it by
 * pnpm), or undefined in a source checkout. Page servers must be allowed to serve from it, and keep their caches there
 * rather than inside the package. Only the package's own parent counts: an unrelated node_modules higher up does not.
 */
export const ENCLOSING_NODE_MODULES: string | undefined = basename(dirname(PACKAGE_ROOT)) === 'node_modules' ? dirname(PACKAGE_ROOT) : undefined

/** The synthetic fixtures the package ships: the awb-mini benchmark package and the demonstrations that solve it. */
export const BUNDLED_FIXTURES = join(PACKAGE_ROOT, 'fixtures')
/** The bundled benchmark package, the default of `benchmark` / `AWB_BENCHMARK` / `awb validate`. */
export const BUNDLED_BENCHMARK = join(BUNDLED_FIXTURES, 'awb-mini')
/** The replay agent's scripts for the bundled benchmark (they solve its samples). */
export const BUNDLED_DEMONSTRATIONS = join(BUNDLED_FIXTURES, 'demonstrations')
/** The generator of the bundled package (it can rebuild every answer): inside fixtures/ from sources, compiled under dist/. */
export const BUNDLED_GENERATOR = dirname(packageModule('fixtures/generator/index.ts'))
