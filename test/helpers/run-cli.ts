// Runs the `awb` CLI in-process with stdout and stderr captured; for CLI tests only.
import { vi } from 'vitest'
import { main } from '../../src/cli/main.ts'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export async function runCli(argv: string[]): Promise<CliRun> {
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
