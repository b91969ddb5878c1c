// Child `vitest run` processes of the bundled benchmark for the long-run tests (test/integration/long-runs.test.ts,
// browser-recovery.test.ts): faults that strike a run once, and readers of the run folders it leaves. No test logic here.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect } from 'vitest'
import { runCli } from './run-cli.ts'
import { vitestCli } from './vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
/** The block the long runs run: two fragments per sample, the quickest to score, as the faults are not about scoring. */
export const BLOCK = 'fantastic-breaks-none'
export const SAMPLES = ['15/15505', '16/16256', '17/17461', '19/19045']
export const FAILING_AGENT = './test/integration/long-runs/failing-agent.ts'
export const SLOW_AGENT = './test/integration/long-runs/slow-agent.ts'
export const SPINNING_AGENT = './test/integration/long-runs/spinning-agent.ts'
export const CHILD_MS = 180_000

export interface Child { code: number | null; output: string }

/** What to do to the run when `when` (polled) first holds: SIGKILL its process group, or act on its process id. */
export type Fault = { when: () => Promise<boolean>; act: (pid: number) => void }

export const killGroup = (pid: number) => { try { process.kill(-pid, 'SIGKILL') } catch { /* already gone */ } }

/**
 * `vitest run --project <block>` with `env`; `fault` (polled) strikes the run once. The end-of-run HTML report is off
 * unless `env` asks for it (as test/helpers/run-benchmark.ts).
 */
export function vitestRun(env: Record<string, string>, fault?: Fault | (() => Promise<boolean>), projects: readonly string[] = [BLOCK]): Promise<Child> {
  const strike: Fault | undefined = typeof fault === 'function' ? { when: fault, act: killGroup } : fault
  return new Promise((resolvePromise) => {
    let output = ''
    const child = spawn(process.execPath, vitestCli('run', projects.flatMap(project => ['--project', project])), {
      cwd: ROOT, env: { ...process.env, NO_COLOR: '1', AWB_REPORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
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

export async function runDirs(runs: string): Promise<string[]> {
  try {
    return (await readdir(runs)).filter(name => !name.endsWith('-report')).sort().map(name => join(runs, name))
  } catch {
    return []
  }
}

/** Results with a given status in the newest run of `runs`. */
export async function resultsWith(runs: string, status: string): Promise<number> {
  const [newest] = (await runDirs(runs)).slice(-1)
  if (newest === undefined) return 0
  let count = 0
  for (const slug of await readdir(join(newest, 'blocks', BLOCK, 'samples')).catch(() => [] as string[])) {
    const text = await readFile(join(newest, 'blocks', BLOCK, 'samples', slug, 'result.json'), 'utf8').catch(() => '')
    if (text !== '' && (JSON.parse(text) as { status: string }).status === status) count++
  }
  return count
}

export interface BlockFigures { n: number; SR: number; PA: number; SCD: number | null }
export async function blockFigures(runDir: string): Promise<BlockFigures> {
  const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8')) as { blocks: Record<string, BlockFigures> }
  const figures = summary.blocks[BLOCK]!
  return { n: figures.n, SR: figures.SR, PA: figures.PA, SCD: figures.SCD }
}

export async function status(runDir: string): Promise<{ status: string; pause_reason?: string; counts: Record<string, number>; samples: Record<string, string> }> {
  const result = await runCli(['status', runDir, '--json'])
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout)
}

const scratch: string[] = []
/** A fresh runs folder, removed by `removeRunFolders` (call it from the test file's afterAll). */
export async function newRuns(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'awb-long-'))
  scratch.push(dir)
  return dir
}
export async function removeRunFolders(): Promise<void> {
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true })
}


/** What a fault kills of one block's Chromium: the browser process, or the renderers of its pages (a page crash). */
export type ChromiumTarget = 'browser' | 'renderers'

/** The processes of `block`'s Chromium under the run `root` to kill (the plugin names the block in its arguments). */
export function chromiumOf(root: number, block: string, target: ChromiumTarget): number[] {
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

export type Result = { status: string; execution: { status: string; error?: string | null } }

/** The results of the newest run in `runs`, per `block/sampleId`. */
export async function results(runs: string): Promise<Map<string, Result>> {
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
export async function runningSamples(runs: string): Promise<string[]> {
  return [...(await results(runs))].filter(([, result]) => result.status === 'running').map(([id]) => id)
}
