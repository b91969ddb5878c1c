// `awb report` (issue #28): written at once without scoring unless --curves is given; with it, the report is
// written first, then every step is scored with progress lines on stderr and curves.json is recorded in the run.
import { spawnSync } from 'node:child_process'
import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { run } from '../../../src/cli/commands/report.ts'
import { decodeEpisode, encodeEpisode } from '../../../src/episode/index.ts'
import { createScorer, evaluateRuns } from '../../../src/evaluate/index.ts'
import { findSample, openPackage, readEpisode } from '../../../src/package/index.ts'
import { curvesNotComputed } from '../../../src/report/html/build-report.ts'
import type { ReportData } from '../../../src/report/html/index.ts'
import { loadMujoco, WorldRuntime } from '../../../src/world/index.ts'
import { writeRun } from '../../helpers/run-fixture.ts'

const PACKAGE = 'fixtures/awb-mini'
/** Three recorded calls (get_scene and two placements), about a second of scoring. */
const [BLOCK, SAMPLE] = ['fantastic-breaks-none', '16/16256'] as const

let work: string
let runDir: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'awb-report-cli-'))
  const pkg = await openPackage(PACKAGE)
  const sample = findSample(pkg, BLOCK, SAMPLE)
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode: await decodeEpisode(await readEpisode(pkg, sample)) })
  const script = await readFile(join('fixtures/demonstrations', BLOCK, `${sample.slug}.calls.jsonl`), 'utf8')
  for (const line of script.split('\n').filter(l => l.trim() !== '')) {
    const call = JSON.parse(line) as { name: string; arguments: Record<string, unknown> }
    await runtime.callTool(call.name, call.arguments)
  }
  runDir = await writeRun({ dir: join(work, 'run'), attempts: [{ block: BLOCK, sampleId: SAMPLE, finalEpisode: await encodeEpisode(runtime.exportEpisode()) }] })
  const scorer = createScorer({ workers: 0 })
  try {
    await evaluateRuns({ runDirs: [runDir], packageDir: PACKAGE, outputDir: join(work, 'eval'), scorer })
  } finally {
    await scorer.close()
  }
  await copyFile(join(work, 'eval', 'metrics.jsonl'), join(runDir, 'metrics.jsonl'))
}, 120_000)

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

/** Runs the command with cac's options object; returns its exit code and what it wrote on stderr. */
async function report(flags: Record<string, unknown>): Promise<{ code: number; stderr: string }> {
  const lines: string[] = []
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk))
    return true
  })
  try {
    return { code: await run([runDir, { '--': [], benchmark: PACKAGE, captures: false, ...flags }]), stderr: lines.join('') }
  } finally {
    stderr.mockRestore()
  }
}

async function pageData(out: string): Promise<ReportData> {
  const html = await readFile(join(out, 'index.html'), 'utf8')
  const json = html.slice(html.indexOf('id="awb-data">') + 'id="awb-data">'.length, html.indexOf('</script>'))
  return JSON.parse(json) as ReportData
}

const exists = (path: string) => stat(path).then(() => true, () => false)

describe('awb report', () => {
  it('scores nothing without --curves: the sample says how to get its curve, and the run gets no curves.json', async () => {
    const out = join(work, 'plain')
    const result = await report({ out })
    expect(result.code).toBe(0)
    expect(result.stderr).not.toContain('curves:')
    expect(await exists(join(runDir, 'curves.json'))).toBe(false)
    const [sample] = (await pageData(out)).samples
    expect(sample).toMatchObject({ steps: [], figures: null, curve_error: curvesNotComputed(runDir) })
    // Its 3D replay (the final state) is there all the same.
    expect(sample!.scene).not.toBeNull()
  })

  it('with --curves, writes the report first, then scores every step with progress and time left, and records curves.json', async () => {
    const out = join(work, 'with-curves')
    const result = await report({ out, curves: true, workers: 1 })
    expect(result.code).toBe(0)
    expect(result.stderr).toContain(`awb report: wrote ${join(out, 'index.html')} without curves; now scoring every recorded step`)
    expect(result.stderr).toMatch(/awb report: curves: 1\/1 samples, 3 of 3 steps, done in \d+ s\n/)
    expect(await exists(join(runDir, 'curves.json'))).toBe(true)
    const [sample] = (await pageData(out)).samples
    expect(sample!.steps.map(step => step.tool)).toEqual(['get_scene', 'set_object_pose', 'set_object_pose'])
    expect(sample!.curve_error).toBeNull()
    // A later report reuses the recorded curves without scoring.
    const again = await report({ out: join(work, 'reused') })
    expect(again.stderr).not.toContain('curves:')
    expect((await pageData(join(work, 'reused'))).samples[0]!.steps).toHaveLength(3)
  })
})

describe('awb report --help', () => {
  it('says what --curves and --no-captures do, with plain defaults (not cac\'s "(default: true)" of a --no- flag)', () => {
    const help = spawnSync(process.execPath, [join(import.meta.dirname, '..', '..', '..', 'bin', 'awb.mjs'), 'report', '--help'], { encoding: 'utf8' })
    expect(help.status).toBe(0)
    expect(help.stdout).not.toContain('(default: true)')
    expect(help.stdout).toMatch(/--captures .*on by default; --no-captures/)
    expect(help.stdout).toMatch(/--curves .*off by default/)
  })
})
