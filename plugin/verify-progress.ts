// Opens the benchmark package at the start of a run with progress output: verifying every sample's files takes
// tens of seconds on a loaded machine, which would otherwise pass in silence. Prints only; checks nothing itself.
// The verified package is kept for the process, so the run verifies it once however often its config is loaded.
import { realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { openPackage, type BenchmarkPackage } from '../src/package/index.ts'

/** Least time between two rewrites of the progress line on a terminal (ms). */
const PROGRESS_INTERVAL_MS = 200
/** Erases the terminal line the cursor is on and returns to its start. */
const CLEAR_LINE = '\r\u001B[2K'

/** Where progress goes (process.stderr by default): a terminal gets one line rewritten in place. */
export interface ProgressOutput {
  isTTY?: boolean | undefined
  write(text: string): unknown
}

/**
 * `openPackage(dir)` with progress on `out`. On a terminal: `Verifying package <dir>: 37/100 samples…`, updated in
 * place and replaced by the result line. Otherwise (CI logs, pipes): one line when verification starts, one when it
 * ends. A failure clears the progress line and is thrown as openPackage threw it.
 */
export async function openPackageWithProgress(dir: string, out: ProgressOutput = process.stderr): Promise<BenchmarkPackage> {
  const started = performance.now()
  const isTTY = out.isTTY === true
  let lastUpdate = -Infinity
  if (!isTTY) out.write(`awb: verifying package ${dir} (every sample's files)…\n`)
  const onProgress = (done: number, total: number) => {
    if (!isTTY) return
    const now = performance.now()
    if (done < total && now - lastUpdate < PROGRESS_INTERVAL_MS) return
    lastUpdate = now
    out.write(`${CLEAR_LINE}Verifying package ${dir}: ${done}/${total} samples…`)
  }
  try {
    const pkg = await openPackage(dir, { onProgress })
    const samples = pkg.blocks.reduce((sum, block) => sum + block.samples.length, 0)
    out.write(`${isTTY ? CLEAR_LINE : ''}awb: verified package ${dir}: ${samples} samples in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
    return pkg
  } catch (error) {
    if (isTTY) out.write(CLEAR_LINE)
    throw error
  }
}

/**
 * Verified packages of this process by identity (see `packageIdentity`), kept on `globalThis`: Vitest resolves every
 * block project's config through the same plugins (root plus one per block), and Vitest 4.1 loads the config again for
 * each browser server, with fresh module instances, so neither a plugin instance nor a module can hold it.
 */
const VERIFIED_SLOT = Symbol.for('assembly-world-bench.verified-packages')

function verifiedPackages(): Map<string, Promise<BenchmarkPackage>> {
  const found: unknown = Reflect.get(globalThis, VERIFIED_SLOT)
  if (found instanceof Map) return found as Map<string, Promise<BenchmarkPackage>>
  const made = new Map<string, Promise<BenchmarkPackage>>()
  Reflect.set(globalThis, VERIFIED_SLOT, made)
  return made
}

/**
 * Which package `dir` is now: its real path and its benchmark.json's modification time and size, so another path to
 * the same package shares a verification and a changed package is verified again. Undefined when there is none to read
 * (openPackage then says what is wrong).
 */
async function packageIdentity(dir: string): Promise<string | undefined> {
  try {
    const root = await realpath(dir)
    const index = await stat(join(root, 'benchmark.json'))
    return `${root}\u0000${index.mtimeMs}\u0000${index.size}`
  } catch {
    return undefined
  }
}

/**
 * `openPackageWithProgress(dir, out)` once per process and package identity: later calls get the same verified package
 * without verifying or printing again. A failed verification is not kept, so the next call reports it afresh.
 */
export async function openPackageOnce(dir: string, out: ProgressOutput = process.stderr): Promise<BenchmarkPackage> {
  const identity = await packageIdentity(dir)
  if (identity === undefined) return openPackageWithProgress(dir, out)
  const verified = verifiedPackages()
  const known = verified.get(identity)
  if (known !== undefined) return known
  const opening = openPackageWithProgress(dir, out)
  verified.set(identity, opening)
  opening.catch(() => { if (verified.get(identity) === opening) verified.delete(identity) })
  return opening
}
