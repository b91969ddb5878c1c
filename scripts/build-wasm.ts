// Compiles the AssemblyScript ICP kernel to WebAssembly and writes it, base64-embedded, into a generated TS module
// (so the scoring core stays free of file I/O and runs anywhere). `--check` compiles and only compares with the
// committed module, exiting 1 when it is stale.
// Usage: tsx scripts/build-wasm.ts [--check]
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { writeFileAtomic } from '../src/shared/atomic-write.ts'
import { compileIcpKernel, renderKernelModule } from './wasm-kernel.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OUTPUT = 'src/scoring/kernel/icp-kernel.wasm.ts'

const wasm = await compileIcpKernel(ROOT)
const text = renderKernelModule(wasm)
if (process.argv.includes('--check')) {
  const committed = readFileSync(ROOT + OUTPUT, 'utf8')
  if (committed !== text) {
    process.stderr.write(`${OUTPUT} is stale: run \`npm run build:wasm\` and commit the result\n`)
    process.exit(1)
  }
  process.stdout.write(`${OUTPUT} is up to date (${wasm.length} bytes of WebAssembly)\n`)
} else {
  await writeFileAtomic(ROOT + OUTPUT, text)
  process.stdout.write(`wrote ${OUTPUT} (${wasm.length} bytes of WebAssembly)\n`)
}
