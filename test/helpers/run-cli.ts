// Runs the `awb` CLI in-process with stdout and stderr captured; for CLI tests only. The capture replaces the
// process's stdout and stderr writers, so two runs at once (tests in a `describe.concurrent`) would take each other's
// output or restore the writers under each other: runs are queued, one at a time.
import { vi } from 'vitest'
import { main } from '../../src/cli/main.ts'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

let queue: Promise<unknown> = Promise.resolve()

export function runCli(argv: string[]): Promise<CliRun> {
  const run = queue.then(() => runNow(argv))
  queue = run.catch(() => undefined)
  return run
}

async function runNow(argv: string[]): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => { stdout += String(chunk); return true })
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { stderr += String(chunk); return true })
  try {
    return { code: await main(argv), stdout, stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
  }
}
