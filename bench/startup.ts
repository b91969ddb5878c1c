// Start-up cost of the `awb` command, measured as whole processes: `awb --help`, and `awb score` on the 6-part chair
// (conformance 11, "displaced" poses) split into the scoring itself (the row's `seconds`) and everything outside it
// (Node start, module loading, worker start, reading input, printing). Two layouts: the source checkout (TypeScript
// through tsx) and the installed package (compiled dist/, laid out as npm installs it: no sources beside it).
// Usage: npm run bench:startup [-- --runs N] [--no-build]
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const CHAIR = join(ROOT, 'test', 'fixtures', 'conformance', 'scoring', '11_chair')
const runsAt = process.argv.indexOf('--runs')
const RUNS = runsAt < 0 ? 7 : Number(process.argv[runsAt + 1])
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: expected a whole number ≥ 1, got ${process.argv[runsAt + 1]}`)

if (!process.argv.includes('--no-build')) {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('the build failed')
}

// The installed layout: package.json, bin/ and dist/ only; dependencies beside it as npm would hoist them.
const installed = mkdtempSync(join(tmpdir(), 'awb-startup-'))
for (const entry of ['package.json', 'bin', 'dist']) cpSync(join(ROOT, entry), join(installed, entry), { recursive: true })
symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'), 'dir')

const layouts = [
  { name: 'source checkout (tsx)', bin: join(ROOT, 'bin', 'awb.mjs') },
  { name: 'installed package (dist)', bin: join(installed, 'bin', 'awb.mjs') },
]
const scoreArgs = ['score', '--evaluation', join(CHAIR, 'evaluation.json'), '--poses', join(CHAIR, 'poses', 'displaced.json'), '--json']

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Wall seconds of one whole process, and its stdout. */
function timed(bin: string, args: string[]): { seconds: number; stdout: string } {
  const started = process.hrtime.bigint()
  const child = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  if (child.status !== 0) throw new Error(`awb ${args[0]} failed (${child.status}): ${child.stderr}`)
  return { seconds, stdout: child.stdout }
}

try {
  console.log(`awb start-up, median of ${RUNS} runs (whole processes, wall seconds)`)
  console.log('layout                     --help   score total   scoring   outside scoring')
  for (const layout of layouts) {
    timed(layout.bin, ['--help']) // warms the file cache (and tsx's transform cache) for both commands
    timed(layout.bin, scoreArgs)
    const help: number[] = []
    const total: number[] = []
    const scoring: number[] = []
    const outside: number[] = []
    for (let i = 0; i < RUNS; i++) {
      help.push(timed(layout.bin, ['--help']).seconds)
      const score = timed(layout.bin, scoreArgs)
      const row = JSON.parse(score.stdout) as { status: string; seconds: number; scoring_seconds?: number }
      if (row.status !== 'scored') throw new Error(`the chair did not score: ${score.stdout}`)
      const inside = row.scoring_seconds ?? row.seconds
      total.push(score.seconds)
      scoring.push(inside)
      outside.push(score.seconds - inside)
    }
    const cell = (value: number, width: number) => value.toFixed(3).padStart(width)
    console.log(`${layout.name.padEnd(25)}${cell(median(help), 8)}${cell(median(total), 14)}${cell(median(scoring), 10)}${cell(median(outside), 18)}`)
  }
} finally {
  rmSync(installed, { recursive: true, force: true })
}
