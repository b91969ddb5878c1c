import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/run-cli.ts'

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'conformance', 'scoring', '06_bench_fixture.json')

let dir: string
let evaluationPath: string
let fixture: { evaluation: Record<string, unknown>; final_poses: Record<string, unknown>; result: Record<string, unknown> }

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'awb-score-'))
  fixture = JSON.parse(await readFile(FIXTURE, 'utf8'))
  evaluationPath = join(dir, 'evaluation.json')
  await writeFile(evaluationPath, JSON.stringify(fixture.evaluation))
})
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

async function writePoses(poses: unknown): Promise<string> {
  const path = join(dir, 'poses.json')
  await writeFile(path, JSON.stringify(poses))
  return path
}

describe('awb score --poses', () => {
  it('scores the single-part bench fixture like the reference (exit 0, official row fields)', async () => {
    const poses = await writePoses(fixture.final_poses)
    const { code, stdout } = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--json'])
    expect(code).toBe(0)
    const row = JSON.parse(stdout)
    expect(row).toMatchObject({ status: 'scored', SCD: 0, PA: 1, SR: 1, scale_divisor: 1, backend: 'cpu-cells', kernel: 'cells' })
    expect(row.alignment).toMatchObject({ seed: 'part-0', best_iteration: 0, iterations: 1, converged: true })
    expect(row.alignment.candidates).toBeUndefined()
    expect(row.parts).toEqual([{ part_id: 'p', target_part_id: 'p', chamfer: 0, correct: true }])
    expect(typeof row.seconds).toBe('number')
  })

  it('gives the same row with every --kernel and rejects an unknown one (exit 2)', async () => {
    const poses = await writePoses({ p: { position: [0.3, -0.2, 0.1], quaternion: [0.9, 0.1, -0.3, 0.2] } })
    const rows: Record<string, unknown>[] = []
    for (const kernel of ['cells', 'wasm', 'js']) {
      const { code, stdout } = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--candidates', '--kernel', kernel, '--workers', '0', '--json'])
      expect(code).toBe(0)
      const { seconds: _seconds, kernel: used, backend, ...row } = JSON.parse(stdout) as Record<string, unknown>
      expect(used).toBe(kernel)
      // The backend label names the kernel that ran.
      expect(backend).toBe({ cells: 'cpu-cells', wasm: 'cpu-kdtree-wasm', js: 'cpu-kdtree-js' }[kernel])
      rows.push(row)
    }
    expect(rows[1]).toStrictEqual(rows[0])
    expect(rows[2]).toStrictEqual(rows[0])
    const bad = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--kernel', 'gpu'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--kernel/)
  })

  it('--backend cpu and auto give the same row, naming the backend used (cpu here: no GPU); a bad name exits 2', async () => {
    const poses = await writePoses({ p: { position: [0.3, -0.2, 0.1], quaternion: [0.9, 0.1, -0.3, 0.2] } })
    const rows: Record<string, unknown>[] = []
    for (const backend of ['cpu', 'auto']) {
      const { code, stdout } = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--backend', backend, '--workers', '0', '--json'])
      expect(code).toBe(0)
      const { seconds: _seconds, ...row } = JSON.parse(stdout) as Record<string, unknown>
      expect(row.backend).toBe('cpu-cells')
      rows.push(row)
    }
    expect(rows[1]).toStrictEqual(rows[0])
    const bad = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--backend', 'cuda'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--backend/)
    const saved = process.env.AWB_SCORING_BACKEND
    process.env.AWB_SCORING_BACKEND = 'cuda'
    try {
      const badEnv = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses])
      expect(badEnv.code).toBe(2)
      expect(badEnv.stderr).toMatch(/AWB_SCORING_BACKEND="cuda": expected one of auto, cpu, gpu/)
    } finally {
      if (saved === undefined) delete process.env.AWB_SCORING_BACKEND
      else process.env.AWB_SCORING_BACKEND = saved
    }
  })

  it('lists every start with --candidates and accepts the {"poses": …} wrapper and a rotation matrix', async () => {
    const poses = await writePoses({ poses: { p: { position: [0, 0, 0], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] } } })
    const { code, stdout } = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--candidates', '--json'])
    expect(code).toBe(0)
    const row = JSON.parse(stdout)
    expect(row.alignment.candidates.map((c: { seed: string }) => c.seed)).toEqual([...Array.from({ length: 24 }, (_, i) => `pca-${i}`), 'part-0'])
  })

  it.each([
    ['a missing part', {}, /EvaluateError: .*missing p/],
    ['an extra part', { p: { position: [0, 0, 0], quaternion: [1, 0, 0, 0] }, q: { position: [0, 0, 0], quaternion: [1, 0, 0, 0] } }, /unknown q/],
    ['a zero quaternion', { p: { position: [0, 0, 0], quaternion: [0, 0, 0, 0] } }, /ScoringError: .*quaternion/],
    ['a reflection matrix', { p: { position: [0, 0, 0], rotation: [[-1, 0, 0], [0, 1, 0], [0, 0, 1]] } }, /reflection/],
    ['a pose with both quaternion and rotation', { p: { position: [0, 0, 0], quaternion: [1, 0, 0, 0], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] } }, /EvaluateError/],
  ])('gives an error row and exit 1 for %s', async (_label, poses, message) => {
    const { code, stdout } = await runCli(['score', '--evaluation', evaluationPath, '--poses', await writePoses(poses), '--json'])
    expect(code).toBe(1)
    const row = JSON.parse(stdout)
    expect(row).toMatchObject({ status: 'error', SCD: null, PA: 0, SR: 0 })
    expect(row.error).toMatch(message)
  })

  it('gives an error row for a 999-point cloud and for groups that do not partition the parts', async () => {
    const poses = await writePoses(fixture.final_poses)
    const points = (fixture.evaluation.points as Record<string, number[][]>).p!
    await writeFile(evaluationPath, JSON.stringify({ ...fixture.evaluation, points: { p: points.slice(1) } }))
    let result = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--json'])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout).error).toMatch(/PackageError: .*999/)
    const equivalence = fixture.evaluation.equivalence as Record<string, unknown>
    await writeFile(evaluationPath, JSON.stringify({ ...fixture.evaluation, equivalence: { ...equivalence, groups: [['p'], ['p']] } }))
    result = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--json'])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout).error).toMatch(/PackageError: .*partition|PackageError: .*more than one group|PackageError: .*twice/)
  })

  it('treats a missing input file or a wrong flag combination as a usage error (exit 2)', async () => {
    expect((await runCli(['score', '--evaluation', join(dir, 'nope.json'), '--poses', join(dir, 'x.json')])).code).toBe(2)
    expect((await runCli(['score', '--evaluation', evaluationPath])).code).toBe(2)
    expect((await runCli(['score', '--evaluation', evaluationPath, '--poses', 'a', '--episode', 'b', '--initial', 'c'])).code).toBe(2)
  })

  it('refuses more scoring workers than the cap with a usage error at once, never a hang', async () => {
    const poses = join(dir, 'poses-cap.json')
    await writeFile(poses, '{}')
    const result = await runCli(['score', '--evaluation', evaluationPath, '--poses', poses, '--workers', '100000'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--workers: at most 64 scoring workers/)
  })
})
