// Long runs survive faults (child `vitest run` processes, real Chromium): kill -9 mid-block then resume, the stop
// rules (three infrastructure failures, quota text), --retry-failed, and `awb status` on each kind of run.
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainStatus } from '../../src/runs/index.ts'
import { runCli } from '../helpers/run-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BLOCK = 'ikea-manualbook'
const SAMPLES = ['Chair/logrelm', 'Misc/grefodun', 'Shelf/sagrerg', 'Table/klakotyl']
const FAILING_AGENT = './test/integration/long-runs/failing-agent.ts'
const CHILD_MS = 180_000

interface Child { code: number | null; output: string }

/** `vitest run --project <block>` with `env`; `killWhen` (polled) kills its whole process group with SIGKILL. */
function vitestRun(env: Record<string, string>, killWhen?: () => Promise<boolean>): Promise<Child> {
  return new Promise((resolvePromise) => {
    let output = ''
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', BLOCK], {
      cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    })
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
    let poll: ReturnType<typeof setInterval> | undefined
    if (killWhen !== undefined) {
      let busy = false
      poll = setInterval(() => {
        if (busy) return
        busy = true
        void killWhen().then((kill) => {
          busy = false
          if (kill) {
            clearInterval(poll)
            try { process.kill(-child.pid!, 'SIGKILL') } catch { /* already gone */ }
          }
        })
      }, 50)
    }
    child.on('close', (code) => {
      clearInterval(poll)
      resolvePromise({ code, output })
    })
  })
}

async function runDirs(runs: string): Promise<string[]> {
  try {
    return (await readdir(runs)).filter(name => !name.endsWith('-report')).sort().map(name => join(runs, name))
  } catch {
    return []
  }
}

/** Results with a given status in the newest run of `runs`. */
async function resultsWith(runs: string, status: string): Promise<number> {
  const [newest] = (await runDirs(runs)).slice(-1)
  if (newest === undefined) return 0
  let count = 0
  for (const slug of await readdir(join(newest, 'blocks', BLOCK, 'samples')).catch(() => [] as string[])) {
    const text = await readFile(join(newest, 'blocks', BLOCK, 'samples', slug, 'result.json'), 'utf8').catch(() => '')
    if (text !== '' && (JSON.parse(text) as { status: string }).status === status) count++
  }
  return count
}

interface BlockFigures { n: number; SR: number; PA: number; SCD: number | null }
async function blockFigures(runDir: string): Promise<BlockFigures> {
  const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8')) as { blocks: Record<string, BlockFigures> }
  const figures = summary.blocks[BLOCK]!
  return { n: figures.n, SR: figures.SR, PA: figures.PA, SCD: figures.SCD }
}

async function status(runDir: string): Promise<{ status: string; pause_reason?: string; counts: Record<string, number>; samples: Record<string, string> }> {
  const result = await runCli(['status', runDir, '--json'])
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout)
}

const scratch: string[] = []
async function newRuns(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'awb-long-'))
  scratch.push(dir)
  return dir
}
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true })
})

describe('kill -9 mid-block, then AWB_RESUME', () => {
  let baseline: BlockFigures
  beforeAll(async () => {
    const runs = await newRuns()
    const child = await vitestRun({ AWB_RUNS: runs })
    expect(child.code, child.output).toBe(0)
    baseline = await blockFigures((await runDirs(runs))[0]!)
  }, CHILD_MS)

  it.each([
    ['while the first sample runs', (runs: string) => resultsWith(runs, 'running').then(n => n >= 1)],
    ['after two samples finished', (runs: string) => resultsWith(runs, 'completed').then(n => n >= 2)],
  ])('%s: the resumed chain has every sample exactly once and the same aggregate as an uninterrupted run', async (_when, killWhen) => {
    const runs = await newRuns()
    const killed = await vitestRun({ AWB_RUNS: runs }, () => killWhen(runs))
    expect(killed.code).toBeNull() // killed by the signal
    const [first] = await runDirs(runs)
    const before = await status(first!)
    expect(before.status).toBe('interrupted')
    const finished = Object.values(before.samples).filter(state => state === 'completed').length
    expect(finished).toBeLessThan(SAMPLES.length)

    const resumed = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: 'latest' })
    expect(resumed.code, resumed.output).toBe(0)
    const [, second] = await runDirs(runs)
    const chain = await chainStatus(second!)
    expect(chain.chain.map(run => run.dir)).toHaveLength(2)
    expect(chain.samples.map(sample => [sample.sampleId, sample.state])).toEqual(SAMPLES.map(id => [id, 'completed']))
    // Only what was not finished ran again; the old run's files were left as they were.
    const rerun = Object.values((JSON.parse(await readFile(join(second!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()
    expect(rerun).toHaveLength(SAMPLES.length - finished)
    expect((await status(first!)).samples).toEqual(before.samples)
    expect(await blockFigures(second!)).toEqual(baseline)
    const after = await status(second!)
    expect(after).toMatchObject({ status: 'completed', counts: { completed: SAMPLES.length } })
  }, 2 * CHILD_MS)
})

describe('stop rules', () => {
  it('three infrastructure failures pause the run, skip the rest, and --retry-failed runs exactly the failed ones', async () => {
    const runs = await newRuns()
    const failing = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: FAILING_AGENT })
    expect(failing.code).not.toBe(0)
    expect(failing.output).toMatch(/3 failed \| 1 skipped/)
    const [first] = await runDirs(runs)
    expect(await status(first!)).toMatchObject({ status: 'paused', pause_reason: 'Three consecutive infrastructure failures', counts: { failed: 3 } })
    expect(JSON.parse(await readFile(join(first!, 'summary.json'), 'utf8'))).toMatchObject({ status: 'partial' })

    // Without --retry-failed only the sample that never ran runs; the failed ones are reported as they failed.
    const plain = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: first! })
    expect(plain.output).toMatch(/3 failed \| 1 passed/)
    const [, second] = await runDirs(runs)
    expect(Object.values((JSON.parse(await readFile(join(second!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()).toEqual([SAMPLES[3]])

    const retried = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: second!, AWB_RETRY_FAILED: '1' })
    expect(retried.code, retried.output).toBe(0)
    const [, , third] = await runDirs(runs)
    expect(Object.values((JSON.parse(await readFile(join(third!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()).toEqual(SAMPLES.slice(0, 3))
    expect(await status(third!)).toMatchObject({ status: 'completed', counts: { completed: 4 } })
  }, 3 * CHILD_MS)

  it('quota text stops the run after the first sample', async () => {
    const runs = await newRuns()
    const quota = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: FAILING_AGENT, VITE_AWB_FAIL_MESSAGE: "You've hit your usage limit. Try again at 5pm." })
    expect(quota.output).toMatch(/1 failed \| 3 skipped/)
    expect(quota.output).toMatch(/Account quota exhausted/)
    const [first] = await runDirs(runs)
    expect(await status(first!)).toMatchObject({ status: 'paused', pause_reason: 'Account quota exhausted', counts: { failed: 1 } })
  }, CHILD_MS)
})
