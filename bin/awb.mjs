#!/usr/bin/env node
// The `awb` command. Installed from the package it runs the compiled JavaScript under dist/; in a source checkout
// (src/*.ts present, no published build) it loads the TypeScript sources through tsx, a development dependency, so a
// checkout never runs a stale dist/.
import { existsSync } from 'node:fs'
import module from 'node:module'

const fromSources = existsSync(new URL('../src/cli/main.ts', import.meta.url))
let main
if (fromSources) {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/cli/main.ts'))
} else {
  // V8 keeps the code it compiled for the package's modules on disk (Node ≥ 22.1: os.tmpdir()/node-compile-cache, or
  // NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off) and reuses it when the source is byte-identical, so
  // later runs skip compiling; what runs is unchanged. A cache that cannot be opened leaves compilation as it was.
  module.enableCompileCache?.()
  ;({ main } = await import('../dist/src/cli/main.js'))
}
process.exitCode = await main(process.argv.slice(2))
