// Runs the benchmark config (`vitest run` at the repository root) in a child process, as users run it; no assertions.
import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { vitestCli } from './vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')

export interface ChildRun {
  code: number
  /** stdout, then stderr. */
  output: string
}

/**
 * `vitest run ...args` with `env` over this process's, colours and the GitHub step summary off, and the end-of-run HTML
 * report off unless `env` asks for it (AWB_REPORT=1): it renders every final scene in a headless Chromium of its own,
 * seconds per run that only the tests which read the report need (main-job.test.ts, report-html.test.ts).
 */
export function runBenchmark(args: readonly string[], env: Record<string, string>): Promise<ChildRun> {
  return new Promise((done) => {
    execFile(process.execPath, vitestCli('run', args), {
      cwd: ROOT,
      env: { ...process.env, GITHUB_STEP_SUMMARY: '', FORCE_COLOR: '0', NO_COLOR: '1', AWB_REPORT: '0', ...env },
      maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: `${stdout}\n${stderr}` }))
  })
}
