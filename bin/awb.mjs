#!/usr/bin/env node
// The `awb` command. Installed from the package it runs the compiled JavaScript under dist/; in a source checkout
// (src/*.ts present, no published build) it loads the TypeScript sources through tsx, a development dependency, so a
// checkout never runs a stale dist/.
import { existsSync } from 'node:fs'

const fromSources = existsSync(new URL('../src/cli/main.ts', import.meta.url))
let main
if (fromSources) {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/cli/main.ts'))
} else {
  ;({ main } = await import('../dist/src/cli/main.js'))
}
process.exitCode = await main(process.argv.slice(2))
