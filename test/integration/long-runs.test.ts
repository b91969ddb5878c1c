// Long runs survive faults (child `vitest run` processes, real Chromium): kill -9 mid-block then resume, the stop
// rules (three infrastructure failures, quota text), --retry-failed, and `awb status` on each kind of run.
import { execFileSync, spawn } from 'node:child_process'
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
const SLOW_AGENT = './test/integration/long-runs/slow-agent.ts'
const SPINNING_AGENT = './test/integration/long-runs/spinning-agent.ts'
const CHILD_MS = 180_000

interface Child { code: number | null; output: string }

/** What to do to the run when `when` (polled) first holds: SIGKILL its process group, or act on its process id. */
type Fault = { when: () => Promise<boolean>; act: (pid: number) => void }

const killGroup = (pid: number) => { try { process.kill(-pid, 'SIGKILL') } catch { /* already gone */ } }

/** `vitest run --project <block>` with `env`; `fault` (polled) strikes the run once. */
function vitestRun(env: Record<string, string>, fault?: Fault | (() => Promise<boolean>), projects: readonly string[] = [BLOCK]): Promise<Child> {
  const strike: Fault | undefined = typeof fault === 'function' ? { when: fault, act: killGroup } : fault
  return new Promise((resolvePromise) => {
    let output = ''
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...projects.flatMap(project => ['--project', project])], {
      cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    })
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
    let poll: ReturnType<typeof setInterval> | undefined
    if (strike !== undefined) {
      let busy = false
      let done = false
      poll = setInterval(() => {
        if (busy || done) return
        busy = true
        void strike.when().then((now) => {
          busy = false
          if (now && !done) {
            done = true
            clearInterval(poll)
            strike.act(child.pid!)
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

/** What a fault kills of one block's Chromium: the browser process, or the renderers of its pages (a page crash). */
type ChromiumTarget = 'browser' | 'renderers'

/** The processes of `block`'s Chromium under the run `root` to kill (the plugin names the block in its arguments). */
function chromiumOf(root: number, block: string, target: ChromiumTarget): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
  const parent = new Map<number, number>()
  const commands = new Map<number, string>()
  for (const line of table.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)
    if (match === null) continue
    parent.set(Number(match[1]), Number(match[2]))
    commands.set(Number(match[1]), match[3]!)
  }
  const descends = (pid: number, ancestor: number) => {
    for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 32; at = parent.get(at), hops++) if (at === ancestor) return true
    return false
  }
  const browser = [...commands].find(([pid, args]) => /chrom/i.test(args.split(' ')[0] ?? '') && !args.includes('--type=') && new RegExp(`--awb-block=${block}(\\s|$)`).test(args) && descends(pid, root))?.[0]
  if (browser === undefined || target === 'browser') return browser === undefined ? [] : [browser]
  return [...commands].filter(([pid, args]) => args.includes('--type=renderer') && descends(pid, browser)).map(([pid]) => pid)
}

type Result = { status: string; execution: { status: string; error?: string | null } }

/** The results of the newest run in `runs`, per `block/sampleId`. */
async function results(runs: string): Promise<Map<string, Result>> {
  const found = new Map<string, Result>()
  const [newest] = (await runDirs(runs)).slice(-1)
  if (newest === undefined) return found
  for (const block of await readdir(join(newest, 'blocks')).catch(() => [] as string[])) {
    for (const slug of await readdir(join(newest, 'blocks', block, 'samples')).catch(() => [] as string[])) {
      const text = await readFile(join(newest, 'blocks', block, 'samples', slug, 'result.json'), 'utf8').catch(() => '')
      if (text !== '') found.set(`${block}/${slug.split('--').join('/')}`, JSON.parse(text) as Result)
    }
  }
  return found
}

/** Samples of the newest run in `runs` whose result says `running` (any block). */
async function runningSamples(runs: string): Promise<string[]> {
  return [...(await results(runs))].filter(([, result]) => result.status === 'running').map(([id]) => id)
}

describe('faults in the middle of a sample', () => {
  const projects = [BLOCK, 'partnet-none']

  it.each([
    ['Chromium is killed', 'browser', `the Chromium browser of block ${BLOCK} exited while this sample ran`, true],
    ['page crashes (renderers killed)', 'renderers', `the page of block ${BLOCK} crashed while this sample ran`, false],
  ] as const)('a block whose %s fails only its sample in flight: the block goes on in a new page, the other block completes, summaries are written', async (_what, target, reason, resume) => {
    const runs = await newRuns()
    let inFlight: string | undefined
    const crashed = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: SLOW_AGENT, VITE_AWB_SLOW_MS: '8000' }, {
      // Both blocks are in the middle of a sample: the other block's must survive the kill.
      when: async () => {
        const running = await runningSamples(runs)
        inFlight = running.find(id => id.startsWith(`${BLOCK}/`))
        return running.length >= 2 && inFlight !== undefined
      },
      act: (pid) => {
        const victims = chromiumOf(pid, BLOCK, target)
        if (victims.length === 0) throw new Error(`no Chromium ${target} of block ${BLOCK} was found under the run`)
        for (const victim of victims) process.kill(victim, 'SIGKILL')
      },
    }, projects)
    // The lost sample's test fails; every other test passes.
    expect(crashed.code, crashed.output).toBe(1)
    expect(crashed.output).toMatch(/1 failed \| 7 passed/)
    expect(crashed.output).toContain(`awb: ${reason}`)
    const runList = await runDirs(runs)
    expect(runList).toHaveLength(1)
    const run = runList[0]!
    expect(await status(run)).toMatchObject({ status: 'completed', counts: { completed: 7, interrupted: 1 } })
    expect(Object.entries((await status(run)).samples).filter(([, state]) => state === 'interrupted').map(([id]) => id)).toEqual([inFlight])
    expect((await results(runs)).get(inFlight!)).toMatchObject({ status: 'failed', execution: { status: 'interrupted', error: expect.stringContaining(reason) } })
    // Every sample has a row: the lost one an error row, the rest scored.
    const summary = JSON.parse(await readFile(join(run, 'summary.json'), 'utf8')) as unknown
    expect(summary).toMatchObject({ attempted: 8, blocks: { [BLOCK]: { attempted: 4, scored: 3 }, 'partnet-none': { attempted: 4, scored: 4 } } })
    const rows = (await readFile(join(run, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { block: string; sample_id: string; status: string })
    expect(rows).toHaveLength(8)
    expect(rows.filter(row => row.status === 'error').map(row => `${row.block}/${row.sample_id}`)).toEqual([inFlight])
    if (!resume) return

    // A resume runs the lost sample only.
    const resumed = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: run }, undefined, projects)
    expect(resumed.code, resumed.output).toBe(0)
    const [, second] = await runDirs(runs)
    expect(Object.values((JSON.parse(await readFile(join(second!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()).toEqual([inFlight!.slice(BLOCK.length + 1)])
    expect(await status(second!)).toMatchObject({ status: 'completed', counts: { completed: 8 } })
  }, 2 * CHILD_MS)

  it('Ctrl-C drains: the sample in flight stops its agent, saves its world and is recorded interrupted; the rest is skipped; the run is paused', async () => {
    const runs = await newRuns()
    const interrupted = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: SLOW_AGENT, VITE_AWB_SLOW_MS: '120000' }, {
      when: async () => (await runningSamples(runs)).length >= 1,
      act: pid => process.kill(pid, 'SIGINT'),
    })
    expect(interrupted.output).toMatch(/awb: interrupted/)
    expect(interrupted.output).toMatch(/1 failed \| 3 skipped/)
    const [first] = await runDirs(runs)
    expect(await status(first!)).toMatchObject({ status: 'paused', pause_reason: 'Interrupted (SIGINT)', counts: { interrupted: 1 } })
    const result = JSON.parse(await readFile(join(first!, 'blocks', BLOCK, 'samples', SAMPLES[0]!.replace('/', '--'), 'result.json'), 'utf8')) as { execution: { status: string }; archive: { status: string } }
    // The world it left was saved and scored: the agent stopped, not the harness.
    expect(result).toMatchObject({ execution: { status: 'interrupted' }, archive: { status: 'saved' } })
    expect(JSON.parse(await readFile(join(first!, 'summary.json'), 'utf8'))).toMatchObject({ status: 'partial', attempted: 1 })
  }, CHILD_MS)
})

describe('a page agent that never yields', () => {
  it('its page is closed once it is past its time limit and silent for the grace: the sample is a timeout, the block goes on in a new page', async () => {
    const runs = await newRuns()
    // Misc/grefodun is the block's only 7-part sample: its agent spins; the others stop at once and are scored.
    const run = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: SPINNING_AGENT, VITE_AWB_SPIN_PARTS: '7', AWB_TIMEOUT_SECONDS: '5', AWB_HUNG_PAGE_GRACE_SECONDS: '10' })
    expect(run.code, run.output).toBe(1)
    expect(run.output).toMatch(/1 failed \| 3 passed/)
    expect(run.output).toMatch(/awb: the page of block ikea-manualbook stopped responding: Misc\/grefodun is \d+ s past its time limit of 5 s and the page has not checked in for \d+ s/)
    const [runDir] = await runDirs(runs)
    const result = JSON.parse(await readFile(join(runDir!, 'blocks', BLOCK, 'samples', 'Misc--grefodun', 'result.json'), 'utf8')) as unknown
    // The agent's own failure (a timeout without a saved world), not the harness's: a resume does not run it again.
    expect(result).toMatchObject({ status: 'failed', execution: { status: 'timeout', error: expect.stringContaining('stopped responding') }, archive: { status: 'not_saved' } })
    expect(await status(runDir!)).toMatchObject({ status: 'completed', counts: { completed: 3, failed: 1 } })
    const summary = JSON.parse(await readFile(join(runDir!, 'summary.json'), 'utf8')) as unknown
    expect(summary).toMatchObject({ attempted: 4, blocks: { [BLOCK]: { attempted: 4, scored: 3 } } })
  }, CHILD_MS)
})
