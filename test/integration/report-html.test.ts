// The HTML report of an awb-mini run, opened from disk in headless Chromium (Playwright): the 3D replay draws
// non-blank frames at the first and last step, stepping moves parts, no console errors, no request leaves the
// report folder. The run: two samples replayed from their demonstrations, scored by `awb eval`'s code path.
import { existsSync } from 'node:fs'
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeEpisode, encodeEpisode } from '../../src/episode/index.ts'
import { createScorer, evaluateRuns, type SampleScorer } from '../../src/evaluate/index.ts'
import { findSample, openPackage, readEpisode } from '../../src/package/index.ts'
import { buildReport } from '../../src/report/html/index.ts'
import { ANSWERS_MARKER, insideAnswersFolder } from '../../src/shared/answer-folders.ts'
import { CHROMIUM_ARGS, findChromium } from '../../src/shared/chromium.ts'
import { loadMujoco, WorldRuntime } from '../../src/world/index.ts'
import { runCli } from '../helpers/run-cli.ts'
import { writeRun } from '../helpers/run-fixture.ts'

const PACKAGE = 'fixtures/awb-mini'
const SAMPLES = [['assemblybench-manualbook', '1315'], ['fantastic-breaks-none', '16/16256']] as const
/** The capture background (#181825): a blank frame has only this colour. */
const BACKGROUND = [0x18, 0x18, 0x25]

let work: string
let runDir: string
let reportPath: string
let scorer: SampleScorer
let browser: Browser

/** Replays a sample's demonstration in the Node runtime and returns its final episode. */
async function replayDemonstration(block: string, sampleId: string): Promise<Uint8Array> {
  const pkg = await openPackage(PACKAGE)
  const sample = findSample(pkg, block, sampleId)
  const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode: await decodeEpisode(await readEpisode(pkg, sample)) })
  const script = await readFile(join('fixtures/demonstrations', block, `${sample.slug}.calls.jsonl`), 'utf8')
  for (const line of script.split('\n').filter(l => l.trim() !== '')) {
    const call = JSON.parse(line) as { name: string; arguments: Record<string, unknown> }
    await runtime.callTool(call.name, call.arguments)
  }
  return encodeEpisode(runtime.exportEpisode())
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'awb-report-'))
  scorer = createScorer({ workers: 0 })
  const attempts = await Promise.all(SAMPLES.map(async ([block, sampleId]) => ({ block, sampleId, finalEpisode: await replayDemonstration(block, sampleId) })))
  runDir = await writeRun({ dir: join(work, 'run'), attempts })
  await evaluateRuns({ runDirs: [runDir], packageDir: PACKAGE, outputDir: join(work, 'eval'), scorer })
  await copyFile(join(work, 'eval', 'metrics.jsonl'), join(runDir, 'metrics.jsonl'))
  reportPath = (await buildReport({ runDir, packageDir: PACKAGE, scorer, outDir: join(work, 'report') })).path
  const executablePath = findChromium()
  browser = await chromium.launch({ ...(executablePath === undefined ? {} : { executablePath }), args: [...CHROMIUM_ARGS] })
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await scorer?.close()
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

describe('awb report (HTML)', () => {
  it('opens from disk and replays the trajectory in 3D with non-blank frames, moving parts, no errors and no outside requests', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } })
    const problems: string[] = []
    const requests: string[] = []
    // Warnings are left out: the GL driver warns about the test's own pixel read-back ("GPU stall due to ReadPixels").
    page.on('console', message => { if (message.type() === 'error') problems.push(`${message.type()}: ${message.text()}`) })
    page.on('pageerror', error => problems.push(`pageerror: ${error.message}`))
    page.on('request', request => requests.push(request.url()))
    const url = pathToFileURL(reportPath).href
    await page.goto(`${url}#${encodeURIComponent('assemblybench-manualbook/1315')}`)
    await page.waitForFunction(() => window.awbReport?.viewer !== undefined)

    const stepCount = await page.evaluate(() => window.awbReport!.viewer!.stepCount)
    expect(stepCount).toBe(4)
    // The viewer fills its frame and draws at the size it is shown at, also after the window changes (issue #28).
    const canvasSize = () => page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('#awb-details canvas')!
      const frame = canvas.parentElement!
      return { buffer: [canvas.width, canvas.height], shown: [canvas.clientWidth, canvas.clientHeight], frame: [frame.clientWidth, frame.clientHeight], ratio: devicePixelRatio }
    })
    const wide = await canvasSize()
    expect(wide.shown).toEqual(wide.frame)
    expect(wide.buffer).toEqual(wide.shown.map(v => Math.round(v * wide.ratio)))
    await page.setViewportSize({ width: 800, height: 1600 })
    await page.waitForFunction(width => document.querySelector<HTMLCanvasElement>('#awb-details canvas')!.clientWidth < width, wide.shown[0]!)
    await page.waitForFunction(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('#awb-details canvas')!
      return canvas.width === Math.round(canvas.clientWidth * devicePixelRatio)
    })
    await page.setViewportSize({ width: 1280, height: 1600 })
    await page.waitForFunction(width => document.querySelector<HTMLCanvasElement>('#awb-details canvas')!.width === Math.round(width * devicePixelRatio), wide.shown[0]!)
    const frameAt = async (k: number) => page.evaluate(([step, background]) => {
      window.awbReport!.step(step)
      const source = document.querySelector<HTMLCanvasElement>('#awb-details canvas')!
      const copy = document.createElement('canvas')
      copy.width = source.width
      copy.height = source.height
      const context = copy.getContext('2d')!
      context.drawImage(source, 0, 0)
      const pixels = context.getImageData(0, 0, copy.width, copy.height).data
      let drawn = 0
      for (let i = 0; i < pixels.length; i += 4) if (Math.abs(pixels[i]! - background[0]!) + Math.abs(pixels[i + 1]! - background[1]!) + Math.abs(pixels[i + 2]! - background[2]!) > 24) drawn++
      return { drawn, total: pixels.length / 4, positions: window.awbReport!.viewer!.partPositions() }
    }, [k, BACKGROUND] as const)
    const first = await frameAt(0)
    const last = await frameAt(stepCount - 1)
    expect(first.drawn, 'pixels drawn at the first step').toBeGreaterThan(first.total * 0.002)
    expect(last.drawn, 'pixels drawn at the last step').toBeGreaterThan(last.total * 0.002)
    expect(last.positions).not.toEqual(first.positions)
    // The label and the timeline follow the step.
    await expect(page.locator('.awb-step').textContent()).resolves.toContain(`step ${stepCount}/${stepCount}`)
    // The ground-truth overlay draws more than the parts alone.
    await page.locator('.awb-gt').check()
    const withTruth = await frameAt(stepCount - 1)
    expect(withTruth.drawn).toBeGreaterThan(last.drawn)

    // The final capture was rendered with capture_scene when the report was written, and loads from assets/.
    await expect(page.locator('#awb-details figcaption').first().textContent()).resolves.toContain('rendered when this report was written')
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img.capture')?.complete === true)
    expect(await page.locator('img.capture').evaluate(img => (img as HTMLImageElement).naturalWidth)).toBe(1024)
    await page.evaluate(() => window.awbReport!.select('fantastic-breaks-none/16/16256'))
    await expect(page.locator('#awb-details h2').textContent()).resolves.toBe('fantastic-breaks-none / 16/16256')
    const folder = pathToFileURL(join(work, 'report')).href
    expect(requests.filter(request => !request.startsWith(`${folder}/`))).toEqual([])
    expect(requests.some(request => request.includes('/assets/'))).toBe(true)
    expect(problems).toEqual([])
    await page.close()
  })

  it('marks its folder as holding answers (it shows every sample\'s ground truth): no agent of a later run reads it, wherever it is published', () => {
    expect(insideAnswersFolder(reportPath)).toBe(true)
    expect(existsSync(join(work, 'report', ANSWERS_MARKER))).toBe(true)
  })

  it('lists the samples worst first and sorts by a clicked column', async () => {
    const page = await browser.newPage()
    await page.goto(pathToFileURL(reportPath).href)
    const keys = () => page.locator('#awb-samples tbody tr').evaluateAll(rows => rows.map(row => row.getAttribute('data-key')))
    const rows = JSON.parse(await readFile(join(runDir, 'metrics.jsonl'), 'utf8').then(t => `[${t.trim().split('\n').join(',')}]`)) as { block: string; sample_id: string; SR: number; PA: number; SCD: number }[]
    // Worst first: SR, then PA ascending, then SCD descending.
    const worst = [...rows].sort((a, b) => a.SR - b.SR || a.PA - b.PA || b.SCD - a.SCD).map(r => `${r.block}/${r.sample_id}`)
    expect(await keys()).toEqual(worst)
    await page.locator('#awb-samples th[data-sort="block"]').click()
    expect(await keys()).toEqual(SAMPLES.map(([block, id]) => `${block}/${id}`))
    await page.close()
  })

  it('`awb curves` writes curves.json, steps.arrow and metrics.arrow whose last steps equal the official rows', async () => {
    const run = await runCli(['curves', runDir, '--benchmark', PACKAGE, '--workers', '0', '--backend', 'cpu'])
    expect(run.stderr).not.toContain('warning')
    expect(run.code).toBe(0)
    const figures = JSON.parse(run.stdout) as { samples: number; failed: number; steps: number; states_scored: number; backend: string }
    // 1315: get_scene + 3 placements; 16/16256: get_scene + 2 placements. The backend that scored them is named.
    expect(figures).toMatchObject({ samples: 2, failed: 0, steps: 7, states_scored: 7, backend: 'cpu-cells' })
    const rows = (await readFile(join(runDir, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { SR: number; PA: number; SCD: number })
    const curves = JSON.parse(await readFile(join(runDir, 'curves.json'), 'utf8')) as { samples: { steps: { SR: number; PA: number; SCD: number }[] }[] }
    expect(curves.samples.map(s => s.steps.at(-1)).map(step => [step!.SR, step!.PA, step!.SCD])).toEqual(rows.map(row => [row.SR, row.PA, row.SCD]))
    await expect(runCli(['curves'])).resolves.toMatchObject({ code: 2 })
  })

  it('compares with a baseline through `awb report --baseline`, writes comparison.md and applies the vs_baseline gate', async () => {
    // The baseline failed the first sample: this run wins it.
    const baseline = join(work, 'baseline')
    await writeRun({ dir: baseline, attempts: [] })
    const rows = (await readFile(join(runDir, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
    await writeFile(join(baseline, 'metrics.jsonl'), rows.map((row, i) => JSON.stringify(i === 0 ? { ...row, SR: 0, PA: 0.25 } : row)).join('\n'))
    const out = join(work, 'report-vs')
    const run = await runCli(['report', runDir, '--baseline', baseline, '--out', out, '--benchmark', PACKAGE, '--workers', '0', '--no-captures', '--gates', '{"vs_baseline": {"SR": -0.05}}'])
    expect(run.stderr).toContain('index.html')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('2 paired samples')
    expect(run.stdout).toContain('1 wins, 0 losses, 1 ties')
    const markdown = await readFile(join(out, 'comparison.md'), 'utf8')
    expect(markdown).toContain('exact McNemar p = 1.00')
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('id="awb-comparison"')
  })
})
