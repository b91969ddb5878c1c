// Whole-process scoring against the public Python reference scorer (issue #29 item 3): the installed `awb score` and
// the reference on the same input in the same run, wall and CPU seconds of each process (children's user + system,
// from bash's `times`), the load average, and the speed-up both ways. No scoring code of the reference is stored here.
//
// Samples: the 6-part chair (conformance 11, "displaced" poses), then the largest samples (most parts) of the
// full-size package when `awb fixtures --size full` has written it (~/.cache/assembly-world-bench/full-0/awb-full;
// --full-dir DIR elsewhere), each with poses made here: every part at its ground-truth pose under one rigid motion,
// part 0 moved by FULL_SHIFT and part 1 turned a quarter turn (the chair's kind of "displaced").
//
// The reference: set AWB_REFERENCE_SCORER to a folder that contains the `assembly_world_bench` package of
// AssemblyWorld/assembly-world-bench (its checkout root; only registration.py, geometry.py and __init__.py are
// imported), and have numpy and scipy importable by AWB_REFERENCE_PYTHON (default `python3`; Debian's python3-numpy
// and python3-scipy do). The bench runs a small driver of its own (REFERENCE_DRIVER below) that builds the reference's
// inputs as its scoring.py does for an episode, calls its `align` and `score_parts`, and prints SCD, PA and SR, which
// are checked against ours. Without the variable, the chair's ratio uses the `seconds` the conformance vector
// recorded for the reference (scoring time on one core, so its CPU seconds are taken equal to it), and says so.
//
// Usage: npm run bench:vs-reference [-- --runs N] [--reference-runs N] [--full-samples N] [--full-dir DIR] [--no-build]
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, homedir, loadavg, tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const CHAIR = join(ROOT, 'test', 'fixtures', 'conformance', 'scoring', '11_chair')
const DEFAULT_FULL_DIR = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'assembly-world-bench', 'full-0', 'awb-full')
/** How far part 0 is moved in the full-size samples' poses (scaled units of the package). */
const FULL_SHIFT = 0.15
/** Relative tolerance of the SCD check against the reference (the conformance tolerance, spec/scoring.md §11). */
const SCD_RTOL = 1e-6

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name)
  if (at < 0) return fallback
  const value = Number(process.argv[at + 1])
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name}: expected a whole number ≥ 0, got ${process.argv[at + 1]}`)
  return value
}
const RUNS = Math.max(1, flag('--runs', 5))
const REFERENCE_RUNS = Math.max(1, flag('--reference-runs', 1))
const FULL_SAMPLES = flag('--full-samples', 2)
const fullDirAt = process.argv.indexOf('--full-dir')
const FULL_DIR = fullDirAt < 0 ? DEFAULT_FULL_DIR : resolve(process.argv[fullDirAt + 1]!)
const REFERENCE = process.env.AWB_REFERENCE_SCORER
const PYTHON = process.env.AWB_REFERENCE_PYTHON ?? 'python3'

/**
 * Our driver for the reference (Python): argv = reference folder, evaluation.json, poses file. The same inputs
 * scoring.py's score_episode builds from an episode (clouds posed by the final and the ground-truth poses, divided by
 * the scale divisor; one pose start per part), then the reference's own align and score_parts.
 */
const REFERENCE_DRIVER = `import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from assembly_world_bench.geometry import rotation_matrix, score_parts
from assembly_world_bench.registration import align, transform
with open(sys.argv[2]) as f: evaluation = json.load(f)
with open(sys.argv[3]) as f: final = json.load(f)
ids = evaluation["part_ids"]
divisor = float(evaluation["scale_divisor"])
groups = [[ids.index(p) for p in g] for g in evaluation["equivalence"]["groups"]]
moved, placed, starts = [], [], []
for pid in ids:
    cloud = np.asarray(evaluation["points"][pid], dtype=float)
    gt = np.asarray(evaluation["gt_poses"][pid], dtype=float)
    rf = rotation_matrix(np.asarray(final[pid]["quaternion"], dtype=float))
    tf = np.asarray(final[pid]["position"], dtype=float)
    rg = rotation_matrix(gt[3:])
    moved.append(transform(cloud, rf, tf) / divisor)
    placed.append((cloud @ rg.T + gt[:3]) / divisor)
    r = rg @ rf.T
    starts.append((r, (gt[:3] - r @ tf) / divisor))
r, t, alignment = align(np.concatenate(moved), np.concatenate(placed), starts)
scores, _ = score_parts([transform(p, r, t) for p in moved], placed, groups, ids, alignment["chamfer"])
print(json.dumps(dict(scores, seed=alignment["seed"])))
`

interface Sample { name: string; evaluation: string; poses: string; parts: number; recordedSeconds?: number }
interface Timing { wall: number; cpu: number; stdout: string }
interface Scores { SCD: number; PA: number; SR: number; seed?: string }

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/**
 * Runs `command args` as a whole process under bash and returns its wall seconds, its CPU seconds (user + system of
 * the process and everything it waited for, every thread included: bash's `times` for its children) and its stdout.
 */
function timed(command: string, args: string[]): Timing {
  const started = process.hrtime.bigint()
  const child = spawnSync('bash', ['-c', '"$@"; status=$?; times >&3; exit $status', 'bash', command, ...args], {
    encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  })
  const wall = Number(process.hrtime.bigint() - started) / 1e9
  if (child.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${child.status}): ${child.stderr}`)
  // `times` prints the shell's then its children's user and system time, e.g. "0m2.130s 0m0.096s".
  const lines = String(child.output[3] ?? '').trim().split('\n')
  const cpu = (lines.at(-1) ?? '').split(/\s+/).reduce((sum, field) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(field)
    if (m === null) throw new Error(`bash times: unexpected output ${JSON.stringify(lines)}`)
    return sum + 60 * Number(m[1]) + Number(m[2])
  }, 0)
  return { wall, cpu, stdout: child.stdout }
}

function parseScores(stdout: string, who: string): Scores {
  const row = JSON.parse(stdout.trim().split('\n').at(-1)!) as Partial<Scores> & { status?: string }
  if (typeof row.SCD !== 'number' || typeof row.PA !== 'number' || typeof row.SR !== 'number') throw new Error(`${who}: no scores in ${stdout.slice(0, 500)}`)
  if (row.status !== undefined && row.status !== 'scored') throw new Error(`${who}: not scored: ${stdout.slice(0, 500)}`)
  return { SCD: row.SCD, PA: row.PA, SR: row.SR, ...(row.seed === undefined ? {} : { seed: row.seed }) }
}

/** wxyz quaternion product a ⊗ b. */
function multiplyQuaternions(a: number[], b: number[]): number[] {
  const [aw, ax, ay, az] = a as [number, number, number, number]
  const [bw, bx, by, bz] = b as [number, number, number, number]
  return [aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw]
}

function rotate(q: number[], v: number[]): number[] {
  const p = multiplyQuaternions(multiplyQuaternions(q, [0, v[0]!, v[1]!, v[2]!]), [q[0]!, -q[1]!, -q[2]!, -q[3]!])
  return [p[1]!, p[2]!, p[3]!]
}

/** The full-size samples with the most parts (ties: path order), each with a poses file written under `dir`. */
function fullSizeSamples(count: number, dir: string): Sample[] {
  if (count === 0) return []
  if (!existsSync(FULL_DIR)) {
    console.log(`full-size package: not found at ${FULL_DIR} (\`awb fixtures --size full\` writes it; --full-dir DIR elsewhere); skipped`)
    return []
  }
  const found: { file: string; parts: number }[] = []
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name === 'evaluation.json') found.push({ file: path, parts: (JSON.parse(readFileSync(path, 'utf8')) as { part_ids: string[] }).part_ids.length })
    }
  }
  walk(FULL_DIR)
  found.sort((a, b) => b.parts - a.parts || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  // One rigid motion for the whole assembly: a turn of 0.5 rad about (1, 2, 2)/3, then a shift.
  const half = 0.25
  const motion = [Math.cos(half), Math.sin(half) / 3, 2 * Math.sin(half) / 3, 2 * Math.sin(half) / 3]
  const shift = [0.3, -0.2, 0.1]
  const quarter = [Math.SQRT1_2, Math.SQRT1_2, 0, 0]
  return found.slice(0, count).map(({ file, parts }, k) => {
    const evaluation = JSON.parse(readFileSync(file, 'utf8')) as { part_ids: string[]; gt_poses: Record<string, number[]> }
    const poses: Record<string, { position: number[]; quaternion: number[] }> = {}
    evaluation.part_ids.forEach((id, i) => {
      const gt = evaluation.gt_poses[id]!
      let quaternion = multiplyQuaternions(motion, gt.slice(3))
      const position = rotate(motion, gt.slice(0, 3)).map((x, a) => x + shift[a]! + (i === 0 && a === 0 ? FULL_SHIFT : 0))
      if (i === 1) quaternion = multiplyQuaternions(quaternion, quarter)
      poses[id] = { position, quaternion }
    })
    const posesFile = join(dir, `full-${k}.poses.json`)
    writeFileSync(posesFile, JSON.stringify(poses))
    return { name: `full: ${relative(FULL_DIR, file).split('/').at(-2)} (${parts} parts)`, evaluation: file, poses: posesFile, parts }
  })
}

if (!process.argv.includes('--no-build')) {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('the build failed')
}

// The installed layout (as bench/startup.ts): package.json, bin/ and dist/ only; dependencies beside it as npm hoists them.
const work = mkdtempSync(join(tmpdir(), 'awb-vs-reference-'))
try {
  const installed = join(work, 'package')
  for (const entry of ['package.json', 'bin', 'dist']) cpSync(join(ROOT, entry), join(installed, entry), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'), 'dir')
  const awb = join(installed, 'bin', 'awb.mjs')
  const driver = join(work, 'reference-driver.py')
  writeFileSync(driver, REFERENCE_DRIVER)

  const chairExpected = JSON.parse(readFileSync(join(CHAIR, 'expected', 'displaced.json'), 'utf8')) as { seconds?: number }
  const samples: Sample[] = [
    { name: 'chair (11_chair, displaced)', evaluation: join(CHAIR, 'evaluation.json'), poses: join(CHAIR, 'poses', 'displaced.json'), parts: 6, ...(chairExpected.seconds === undefined ? {} : { recordedSeconds: chairExpected.seconds }) },
    ...fullSizeSamples(FULL_SAMPLES, work),
  ]
  const cpuModel = cpus()[0]?.model ?? 'unknown CPU'
  const loadBefore = loadavg()
  console.log(`machine: ${availableParallelism()} CPUs (${cpuModel}), Node ${process.version}; load average ${loadBefore.map(x => x.toFixed(2)).join(' ')} (1, 5, 15 min) at the start`)
  if (REFERENCE === undefined) {
    console.log('reference: AWB_REFERENCE_SCORER is not set; the chair uses the reference seconds recorded in its conformance vector (expected/displaced.json `seconds`, scoring only, one core: CPU taken equal), the full-size samples get no ratio')
  } else {
    if (!existsSync(join(REFERENCE, 'assembly_world_bench', 'registration.py'))) throw new Error(`AWB_REFERENCE_SCORER=${REFERENCE}: no assembly_world_bench/registration.py there (point it at the reference checkout's root)`)
    console.log(`reference: ${REFERENCE} through ${PYTHON}, median of ${REFERENCE_RUNS} run(s), timed in this run`)
  }
  console.log(`awb: installed layout (bin + dist/), whole process \`awb score --json\`, median of ${RUNS} runs after one warm-up`)

  interface Row {
    sample: string; parts: number; awbWall: number; awbCpu: number
    referenceWall: number | null; referenceCpu: number | null; referenceSource: 'measured' | 'recorded' | 'none'
    wallRatio: number | null; cpuRatio: number | null; SCD: number; referenceSCD: number | null
  }
  const rows: Row[] = []
  for (const sample of samples) {
    const args = [awb, 'score', '--evaluation', sample.evaluation, '--poses', sample.poses, '--json']
    const first = timed(process.execPath, args) // warms the file cache
    const ours = parseScores(first.stdout, 'awb score')
    const runs: Timing[] = []
    for (let i = 0; i < RUNS; i++) runs.push(timed(process.execPath, args))
    const awbWall = median(runs.map(r => r.wall))
    const awbCpu = median(runs.map(r => r.cpu))
    let referenceWall: number | null = null
    let referenceCpu: number | null = null
    let referenceSCD: number | null = null
    let referenceSource: Row['referenceSource'] = 'none'
    if (REFERENCE !== undefined) {
      const refRuns: Timing[] = []
      for (let i = 0; i < REFERENCE_RUNS; i++) refRuns.push(timed(PYTHON, [driver, REFERENCE, sample.evaluation, sample.poses]))
      const theirs = parseScores(refRuns[0]!.stdout, 'the reference')
      if (theirs.PA !== ours.PA || theirs.SR !== ours.SR || Math.abs(theirs.SCD - ours.SCD) > SCD_RTOL * Math.abs(theirs.SCD) + 1e-8) {
        throw new Error(`${sample.name}: the scores differ: awb ${JSON.stringify(ours)}, reference ${JSON.stringify(theirs)}`)
      }
      referenceWall = median(refRuns.map(r => r.wall))
      referenceCpu = median(refRuns.map(r => r.cpu))
      referenceSCD = theirs.SCD
      referenceSource = 'measured'
    } else if (sample.recordedSeconds !== undefined) {
      referenceWall = sample.recordedSeconds
      referenceCpu = sample.recordedSeconds
      referenceSource = 'recorded'
    }
    rows.push({
      sample: sample.name, parts: sample.parts, awbWall, awbCpu, referenceWall, referenceCpu, referenceSource,
      wallRatio: referenceWall === null ? null : referenceWall / awbWall,
      cpuRatio: referenceCpu === null ? null : referenceCpu / awbCpu,
      SCD: ours.SCD, referenceSCD,
    })
  }
  const loadAfter = loadavg()

  const cell = (value: number | null, width: number, digits = 2): string => (value === null ? '—' : value.toFixed(digits)).padStart(width)
  console.log('')
  console.log(`${'sample'.padEnd(36)}  awb wall   awb CPU   ref wall    ref CPU  ref from   wall ×    CPU ×`)
  for (const r of rows) {
    console.log(`${r.sample.padEnd(36)}${cell(r.awbWall, 10, 3)}${cell(r.awbCpu, 10, 3)}${cell(r.referenceWall, 11)}${cell(r.referenceCpu, 11)}  ${r.referenceSource.padEnd(8)}${cell(r.wallRatio, 8, 1)}${cell(r.cpuRatio, 9, 1)}`)
  }
  console.log(`load average at the end: ${loadAfter.map(x => x.toFixed(2)).join(' ')}`)
  console.log(JSON.stringify({
    bench: 'vs-reference',
    machine: { cpus: availableParallelism(), model: cpuModel, node: process.version, loadBefore, loadAfter },
    runs: RUNS, referenceRuns: REFERENCE_RUNS, reference: REFERENCE === undefined ? 'recorded' : 'measured', rows,
  }))
} finally {
  rmSync(work, { recursive: true, force: true })
}
