// A setting that is read late (by the reporter at the end of the run, by the scorer at the first score) still stops a
// real `vitest run` before its first sample when it is malformed: the typo is found in seconds, not after the run.
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { vitestCli } from '../helpers/vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const scratch: string[] = []
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true })
})

async function blockRun(env: Record<string, string>): Promise<{ code: number | null; output: string; runs: string }> {
  const runs = await mkdtemp(join(tmpdir(), 'awb-settings-'))
  scratch.push(runs)
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST'))
  const child = spawn(process.execPath, vitestCli('run', ['--project', 'ikea-manualbook']), { cwd: ROOT, env: { ...inherited, NO_COLOR: '1', AWB_RUNS: runs, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const code = await new Promise<number | null>(done => child.on('close', done))
  return { code, output, runs }
}

describe('settings checked at start', () => {
  it.each([
    ['AWB_CURVES', 'yes please', /AWB_CURVES: .*\(use 1 or 0\)/],
    ['AWB_SCORING_BACKEND', 'cuda', /AWB_SCORING_BACKEND="cuda": expected one of/],
    ['AWB_BASELINE', 'runs/never-ran', /AWB_BASELINE=runs\/never-ran: no metrics\.jsonl there/],
  ])('%s=%s stops the run before its first sample, naming the variable', async (name, value, message) => {
    const run = await blockRun({ [name]: value })
    expect(run.code, run.output).not.toBe(0)
    expect(run.output).toMatch(message)
    expect(run.output).not.toContain('Chair/logrelm')
    expect(await readdir(run.runs)).toEqual([])
  }, 120_000)
})
