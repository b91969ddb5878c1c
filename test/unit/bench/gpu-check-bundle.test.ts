// bench/gpu-check.sh on a machine with nothing installed: it collects a bench/gpu-bundle.sh bundle that arrives one
// part per transfer, refuses damaged or mixed parts, unpacks once, and runs the check with the bundle's Node and
// Chromium. The bundle here is a small one of the same layout whose `bin/node` reports how it was called, so the
// script's own logic is what is tested (the real bundle is checked by bench/gpu-bundle.sh itself).
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmod, copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const SCRIPT = resolve(import.meta.dirname, '..', '..', '..', 'bench', 'gpu-check.sh')

const FAKE_NODE = `#!/bin/sh
# Stands in for Node: says what it was asked to run and with which Chromium, and which node_modules it sees.
echo "fake node: $* | chromium=$AWB_CHROMIUM | modules=$(cat node_modules/marker.txt)"
`

let dir: string
let checkout: string
let bundleDir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'awb-gpu-bundle-'))
  checkout = join(dir, 'checkout')
  bundleDir = join(checkout, '.gpu-bundle')
  await mkdir(join(checkout, 'bench'), { recursive: true })
  await copyFile(SCRIPT, join(checkout, 'bench', 'gpu-check.sh'))
  await mkdir(bundleDir)
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A bundle of gpu-bundle.sh's layout, split into parts of `partBytes`; returns the part names in order. */
async function makeBundle(label: string, partBytes: number): Promise<string[]> {
  const root = join(dir, `build-${label}`, 'awb-gpu')
  await mkdir(join(root, 'bin'), { recursive: true })
  await mkdir(join(root, 'chromium'), { recursive: true })
  await mkdir(join(root, 'node_modules'), { recursive: true })
  await writeFile(join(root, 'bin', 'node'), FAKE_NODE)
  await chmod(join(root, 'bin', 'node'), 0o755)
  await writeFile(join(root, 'node_modules', 'marker.txt'), `bundle ${label}`)
  // Incompressible padding, so the archive really spans several parts.
  await writeFile(join(root, 'chromium', 'padding.bin'), randomBytes(30_000))
  const archive = join(dir, `build-${label}`, 'awb-gpu.tar.xz')
  await run('sh', ['-c', `tar -C "${join(dir, `build-${label}`)}" -cf - awb-gpu | xz -0 > "${archive}"`])
  const out = join(dir, `parts-${label}`)
  await mkdir(out)
  await run('sh', ['-c', `split -d -a 2 -b ${partBytes} "${archive}" "${out}/awb-gpu.tar.xz." && cd "${out}" && sha256sum awb-gpu.tar.xz.* > SHA256SUMS`])
  return (await readdir(out)).filter(name => name !== 'SHA256SUMS').sort()
}

/** Puts SHA256SUMS and the named parts of bundle `label` into the checkout's .gpu-bundle/, as one transfer would. */
async function carry(label: string, parts: string[]): Promise<void> {
  await rm(bundleDir, { recursive: true, force: true })
  await mkdir(bundleDir)
  const from = join(dir, `parts-${label}`)
  for (const name of ['SHA256SUMS', ...parts]) await copyFile(join(from, name), join(bundleDir, name))
}

async function check(): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: '/usr/bin:/bin', HOME: dir, AWB_GPU_PARTS: join(dir, 'collected'), AWB_GPU_HOME: join(dir, 'unpacked') }
  try {
    const { stdout, stderr } = await run('bash', [join(checkout, 'bench', 'gpu-check.sh'), '--budget-s', '7'], { env })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string }
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }
  }
}

describe('bench/gpu-check.sh with a bundle', () => {
  it('collects parts that arrive one transfer at a time, names the missing ones, then unpacks and runs', async () => {
    const parts = await makeBundle('a', 8000)
    expect(parts.length).toBeGreaterThanOrEqual(3)

    await carry('a', [parts[0]!])
    let result = await check()
    expect(result.code).toBe(3)
    expect(result.stderr).toContain(`still missing: ${parts.slice(1).join(' ')}`)

    // A later transfer brings only the rest: what came before was kept.
    await carry('a', parts.slice(1))
    result = await check()
    expect(result.stderr).toContain('unpacking the bundle')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`fake node: node_modules/tsx/dist/cli.mjs bench/gpu-check.ts --budget-s 7 | chromium=${join(dir, 'unpacked', 'chromium', 'run')} | modules=bundle a`)
    // The packages are copied into the checkout (Vite serves the page's modules only from inside it).
    expect(await readFile(join(checkout, 'node_modules', 'marker.txt'), 'utf8')).toBe('bundle a')

    // Run again: nothing to unpack.
    result = await check()
    expect(result.code).toBe(0)
    expect(result.stderr).not.toContain('unpacking')
  })

  it('refuses a part that does not match its checksum, and keeps the good copy it already has', async () => {
    const parts = await makeBundle('a', 8000)
    await carry('a', [parts[0]!])
    expect((await check()).code).toBe(3)

    const damaged = join(bundleDir, parts[0]!)
    const bytes = await readFile(damaged)
    bytes[100] = bytes[100]! ^ 0xff
    await writeFile(damaged, bytes)
    const result = await check()
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`.gpu-bundle/${parts[0]} does not match its checksum (cut short in transit?); send it again`)
    expect(await readFile(join(dir, 'collected', parts[0]!))).not.toEqual(bytes)

    await carry('a', parts.slice(1))
    expect((await check()).code).toBe(0)
  })

  it('refuses a part of another bundle', async () => {
    const parts = await makeBundle('a', 8000)
    await makeBundle('b', 5000)
    await carry('b', [])
    await copyFile(join(dir, 'parts-a', parts[0]!), join(bundleDir, 'awb-gpu.tar.xz.00'))
    const result = await check()
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('.gpu-bundle/awb-gpu.tar.xz.00 does not match its checksum')
  })

  it('starts over when a new bundle arrives, dropping the parts of the old one', async () => {
    const oldParts = await makeBundle('a', 8000)
    await carry('a', oldParts.slice(0, -1))
    expect((await check()).code).toBe(3)

    const newParts = await makeBundle('b', 20_000)
    expect(newParts.length).toBeLessThan(oldParts.length - 1) // so that old parts would be left over
    await carry('b', newParts)
    const result = await check()
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('modules=bundle b')
    expect((await readdir(join(dir, 'collected'))).sort()).toEqual(['SHA256SUMS', ...newParts].sort())
  })

  it('fails with advice when AWB_GPU_BUNDLE_ONLY=1 and there is no bundle', async () => {
    await rm(bundleDir, { recursive: true })
    const env = { PATH: '/usr/bin:/bin', AWB_GPU_PARTS: join(dir, 'collected'), AWB_GPU_BUNDLE_ONLY: '1' }
    const failure = await run('bash', [join(checkout, 'bench', 'gpu-check.sh')], { env }).catch((error: unknown) => error as { code: number; stderr: string })
    expect('code' in failure && failure.code).toBe(2)
    expect('stderr' in failure && failure.stderr).toContain('no bundle was found in .gpu-bundle/ or')
  })
})
