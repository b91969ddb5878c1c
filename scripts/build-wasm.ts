// Compiles the AssemblyScript kernels (ICP objective, Voronoi cells) to WebAssembly and writes each, base64-embedded,
// into a generated TS module (so the scoring core stays free of file I/O and runs anywhere). `--check` compiles and
// only compares with the committed modules, exiting 1 when one is stale.
// Usage: tsx scripts/build-wasm.ts [--check]
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { writeFileAtomic } from '../src/shared/atomic-write.ts'
import { KERNELS, compileKernel, renderKernelModule } from './wasm-kernel.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const check = process.argv.includes('--check')

let stale = false
for (const kernel of KERNELS) {
  const wasm = await compileKernel(ROOT, kernel)
  const text = renderKernelModule(wasm, kernel)
  if (check) {
    const committed = readFileSync(ROOT + kernel.output, 'utf8')
    if (committed !== text) {
      process.stderr.write(`${kernel.output} is stale: run \`npm run build:wasm\` and commit the result\n`)
      stale = true
    } else {
      process.stdout.write(`${kernel.output} is up to date (${wasm.length} bytes of WebAssembly)\n`)
    }
  } else {
    await writeFileAtomic(ROOT + kernel.output, text)
    process.stdout.write(`wrote ${kernel.output} (${wasm.length} bytes of WebAssembly)\n`)
  }
}
if (stale) process.exit(1)
