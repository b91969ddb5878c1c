// Opens the benchmark package at the start of a run with progress output: verifying every sample's files takes
// tens of seconds on a loaded machine, which would otherwise pass in silence. Prints only; checks nothing itself.
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
