// `awb report` wall time on a 20-sample run: replays every awb-mini demonstration into a temporary run, scores it
// (`awb eval`'s code, its metrics.jsonl copied into the run as a finished run has one), then times the real command
// (`node bin/awb.mjs report RUN`, a fresh process each time: start-up included) without curves and, with --curves,
// scoring every step. Prints wall and CPU seconds (the child's, from /usr/bin/time when present) as a table and one
// JSON line. The acceptance figure of issue #28: the report without curves in under 30 s on 2 cores. (`--curves`
// needs the flag declared in src/cli/commands.ts.)
// Usage: tsx bench/report.ts [--run RUN_DIR] [--keep DIR] [--curves] [--workers N] [--repeat K] [--no-captures]
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { decodeEpisode } from '../src/episode/index.ts'
import { createScorer, evaluateRuns } from '../src/evaluate/index.ts'
import { BENCH_PACKAGE, replayDemonstrationsRun } from './replay-run.ts'

const GNU_TIME = '/usr/bin/time'

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}
const has = (name: string) => process.argv.includes(name)
const repeat = Number(flag('--repeat') ?? 1)
if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat: expected a whole number ≥ 1, got ${flag('--repeat')}`)
const workers = flag('--workers')

/**
 * A finished run, as `awb report` expects one: the replayed attempts with their recorded call counts (result.json
 * `archive.calls`, which the curves' time estimate reads), metrics.jsonl, and run.json naming its package.
 */
async function prepareRun(dir: string): Promise<string> {
  await replayDemonstrationsRun(dir)
  for (const block of await readdir(join(dir, 'blocks'))) {
    for (const sample of await readdir(join(dir, 'blocks', block, 'samples'))) {
      const folder = join(dir, 'blocks', block, 'samples', sample)
      const episode = await decodeEpisode(new Uint8Array(await readFile(join(folder, 'final.episode.zip'))))
      const result = JSON.parse(await readFile(join(folder, 'result.json'), 'utf8')) as { archive: Record<string, unknown> }
      await writeFile(join(folder, 'result.json'), `${JSON.stringify({ ...result, archive: { ...result.archive, calls: episode.calls.length }, tool_calls: episode.calls.length }, null, 2)}\n`)
    }
  }
  const scorer = createScorer({ backend: 'cpu' })
  try {
    const { outputDir } = await evaluateRuns({ runDirs: [dir], packageDir: BENCH_PACKAGE, outputDir: `${dir}-eval`, scorer })
    await copyFile(join(outputDir, 'metrics.jsonl'), join(dir, 'metrics.jsonl'))
  } finally {
    await scorer.close()
  }
  const runJson = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>
  await writeFile(join(dir, 'run.json'), `${JSON.stringify({ ...runJson, benchmark: { local: resolve(BENCH_PACKAGE) } }, null, 2)}\n`)
  return dir
}

interface Timing { wall_seconds: number; cpu_seconds: number | null; exit: number | null }

/** Runs `awb report` in a fresh process; CPU from GNU time's user + system (children included), when installed. */
function timeReport(runDir: string, extra: readonly string[]): Timing {
  const args = ['bin/awb.mjs', 'report', runDir, '--out', join(runDir, 'report-bench'), ...extra]
  const timed = existsSync(GNU_TIME)
  const started = performance.now()
  const child = timed
    ? spawnSync(GNU_TIME, ['-f', 'awb-bench-cpu %U %S', process.execPath, ...args], { encoding: 'utf8', env: { ...process.env, AWB_SCORING_BACKEND: 'cpu' } })
    : spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, AWB_SCORING_BACKEND: 'cpu' } })
  const wall = (performance.now() - started) / 1000
  const cpu = child.stderr.match(/awb-bench-cpu ([\d.]+) ([\d.]+)/)
  if (child.status !== 0) process.stderr.write(child.stderr)
  return { wall_seconds: wall, cpu_seconds: cpu === null ? null : Number(cpu[1]) + Number(cpu[2]), exit: child.status }
}

const temporary = flag('--run') === undefined && flag('--keep') === undefined ? await mkdtemp(join(tmpdir(), 'awb-bench-report-')) : undefined
try {
  const runDir = flag('--run') ?? (await prepareRun(flag('--keep') ?? join(temporary!, 'run')))
  const captures = has('--no-captures') ? ['--no-captures'] : []
  const configurations: [string, string[]][] = [['no curves', captures]]
  if (has('--curves')) configurations.push(['--curves', [...captures, '--curves', ...(workers === undefined ? [] : ['--workers', workers])]])
  const results: Record<string, Timing[]> = {}
  for (let k = 0; k < repeat; k++) {
    for (const [name, extra] of configurations) {
      // A recorded curves.json would be reused: remove it so --curves scores every time, and no-curves reads none.
      await rm(join(runDir, 'curves.json'), { force: true })
      await rm(join(runDir, 'steps.arrow'), { force: true })
      ;(results[name] ??= []).push(timeReport(runDir, extra))
    }
  }
  const machine = { cpus: availableParallelism(), cpu: cpus()[0]?.model ?? 'cpu', node: process.version, load1: Number(loadavg()[0]!.toFixed(2)) }
  console.log(`awb report on ${runDir} (20 samples, replayed demonstrations); ${machine.cpu} ×${machine.cpus}, load ${machine.load1}; best of ${repeat}`)
  console.log('| configuration | wall s | CPU s | CPU / wall |')
  console.log('|---|---:|---:|---:|')
  const best = Object.fromEntries(Object.entries(results).map(([name, list]) => [name, list.reduce((a, b) => (b.wall_seconds < a.wall_seconds ? b : a))]))
  for (const [name, t] of Object.entries(best)) console.log(`| ${name} | ${t.wall_seconds.toFixed(1)} | ${t.cpu_seconds?.toFixed(1) ?? '—'} | ${t.cpu_seconds === null ? '—' : (t.cpu_seconds / t.wall_seconds).toFixed(2)} |`)
  console.log(JSON.stringify({ bench: 'report', machine, repeat, results: best }))
  if (Object.values(best).some(t => t.exit !== 0)) process.exitCode = 1
} finally {
  if (temporary !== undefined) await rm(temporary, { recursive: true, force: true })
}
