// End to end over a freshly generated awb-mini (seed 0, test-only page renderer): validation, reproducibility,
// shared PartNet files, intended equivalence groups, and scores — initial SR 0, every shape's GT poses SR 1 with
// SCD < 1e-12, complete demonstrations reach exactly the GT poses and imperfect ones score SR 0 — through the runtime.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePackage, writeDemonstrations, writePackage, type GeneratedEntry, type GeneratedPackage } from '../../fixtures/generator/index.ts'
import { createScorer, readFinalScene, scoreFinalEpisode, type SampleScorer } from '../../src/evaluate/index.ts'
import { findSample, loadEvaluation, openPackage, parseEvaluation, readEpisode, type BenchmarkPackage } from '../../src/package/index.ts'
import { quaternionToMatrix } from '../../src/scoring/index.ts'
import { ScoringPool } from '../../src/scoring/workers/index.ts'
import { runCli } from '../helpers/run-cli.ts'
import { createSilhouettePageRenderer } from '../unit/fixtures/silhouette-page-renderer.ts'

const GENERATE_TIMEOUT_MS = 15 * 60_000
const SCORE_TIMEOUT_MS = 5 * 60_000

let root: string
let dir: string
let generated: GeneratedPackage
let pool: ScoringPool
let scorer: SampleScorer
let pkg: BenchmarkPackage

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'awb-mini-'))
  dir = join(root, 'awb-mini')
  pool = new ScoringPool({ workers: 2 })
  scorer = createScorer({ workers: 2 })
  generated = await generatePackage({ seed: 0, pool, pageRenderer: createSilhouettePageRenderer() })
  await writePackage(dir, generated.files)
  await writeDemonstrations(join(root, 'demonstrations'), generated.demonstrations)
  pkg = await openPackage(dir)
}, GENERATE_TIMEOUT_MS)

afterAll(async () => {
  await pool?.close()
  await scorer?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

/** One entry per distinct shape (the PartNet blocks share theirs): the first block that has it. */
const distinctShapes = (): GeneratedEntry[] => generated.entries.filter((entry, i, all) => all.findIndex(other => other.source === entry.source && other.sampleId === entry.sampleId) === i)

describe('awb-mini (seed 0)', () => {
  it('passes awb validate: 5 blocks, 20 evaluations, 30 pages, protocol v2, not the frozen release', async () => {
    const run = await runCli(['validate', dir, '--json'])
    const report = JSON.parse(run.stdout) as { ok: boolean; problems: unknown[]; frozenRelease: boolean; protocol: string; counts: { blocks: number; samples: number; pages: number } }
    expect(report.problems).toEqual([])
    expect(run.code).toBe(0)
    expect(report).toMatchObject({ ok: true, frozenRelease: false, protocol: 'assembly-evaluation-v2', counts: { blocks: 5, samples: 20 } })
    const steps = generated.entries.filter(e => e.block === 'ikea-manualbook' || e.block === 'assemblybench-manualbook').reduce((n, e) => n + e.built.assembly.steps.length, 0)
    expect(report.counts.pages).toBe(4 + steps)
  }, SCORE_TIMEOUT_MS) // validate decodes and compiles every episode: tens of seconds on a loaded machine

  it('lists the real blocks, sources and config ids derived from the identity, and stays under 25 MB', async () => {
    expect(pkg.blocks.map(b => [b.name, b.source, b.referenceMode])).toEqual([
      ['partnet-none', 'partnet-manualpa', 'none'], ['partnet-final-image', 'partnet-manualpa', 'final-image'],
      ['ikea-manualbook', 'ikea-manual', 'manualbook'], ['assemblybench-manualbook', 'assemblybench', 'manualbook'],
      ['fantastic-breaks-none', 'fantastic-breaks', 'none'],
    ])
    expect(pkg.warnings.map(w => w.code)).not.toContain('PACKAGE_CONFIG_ID_DERIVATION')
    let bytes = 0
    for (const file of generated.files.values()) bytes += file.length
    expect(bytes).toBeLessThan(25 * 1024 * 1024)
  })

  it('gives both PartNet blocks byte-identical config.json, episodes and evaluation.json files', () => {
    const partnet = [...generated.files.keys()].filter(path => path.startsWith('partnet-none/') && !path.endsWith('task.txt'))
    expect(partnet.length).toBe(1 + 4 + 4)
    for (const path of partnet) {
      const twin = path.replace('partnet-none/', 'partnet-final-image/')
      expect(generated.files.get(twin), twin).toEqual(generated.files.get(path))
    }
  })

  it('regenerates the committed fixtures/awb-mini and demonstrations byte for byte (rendered pages aside)', async () => {
    // Page images come from a renderer (here a test-only one, in the package three.js in Chromium); pages.json
    // records their hashes and the package README names the renderer. Everything else must be identical.
    const isRendered = (path: string) => /\/page-\d{4}\.png$/.test(path) || path.endsWith('/pages.json') || path === 'README.md'
    const committed = join(import.meta.dirname, '..', '..', 'fixtures', 'awb-mini')
    const compared = [...generated.files].filter(([path]) => !isRendered(path) && path !== 'benchmark.json')
    expect(compared.length).toBe(52) // 96 files less 30 page images, 12 pages.json, the README and benchmark.json
    for (const [path, bytes] of compared) expect(new Uint8Array(await readFile(join(committed, path))), path).toEqual(bytes)
    // benchmark.json names the page renderer in its provenance; everything else in it must match.
    const withoutRenderer = (text: string) => text.replace(/"page_renderer": "[^"]*"/, '"page_renderer": "…"')
    expect(withoutRenderer(new TextDecoder().decode(generated.files.get('benchmark.json')))).toBe(withoutRenderer(await readFile(join(committed, 'benchmark.json'), 'utf8')))
    for (const [path, bytes] of generated.demonstrations) {
      expect(new Uint8Array(await readFile(join(committed, '..', 'demonstrations', path))), path).toEqual(bytes)
    }
    const committedPages = [...generated.files.keys()].filter(path => /\/page-\d{4}\.png$/.test(path))
    for (const path of committedPages) expect((await readFile(join(committed, path))).subarray(1, 4).toString(), path).toBe('PNG')
  })

  it('regenerates a block byte for byte (fresh pool, other worker count)', async () => {
    const again = await generatePackage({ seed: 0, pool: new ScoringPool({ workers: 0 }), blocks: ['fantastic-breaks-none'] })
    const block = [...generated.files].filter(([path]) => path.startsWith('fantastic-breaks-none/'))
    expect(block.length).toBe(1 + 1 + 4 + 4)
    for (const [path, bytes] of block) expect(again.files.get(path), path).toEqual(bytes)
    for (const [path, bytes] of generated.demonstrations) if (path.startsWith('fantastic-breaks-none/')) expect(again.demonstrations.get(path)).toEqual(bytes)
  }, SCORE_TIMEOUT_MS)

  it('forms exactly the intended equivalence groups (identical legs, boards, pins…) in every evaluation.json', async () => {
    for (const entry of generated.entries) {
      const evaluation = parseEvaluation(JSON.parse(await readFile(join(dir, entry.evaluationPath), 'utf8')), { file: entry.evaluationPath })
      expect(evaluation.groups, `${entry.block} / ${entry.sampleId}`).toEqual(entry.built.intendedGroups)
      expect(evaluation.protocol).toBe('assembly-evaluation-v2')
      const sizes = evaluation.groups.map(g => g.length)
      if (entry.source === 'fantastic-breaks') expect(sizes).toEqual([1, 1])
      else expect(Math.max(...sizes), `${entry.sampleId} has a group of 2–4`).toBeGreaterThanOrEqual(2)
      expect(Math.max(...sizes)).toBeLessThanOrEqual(4)
    }
  })

  describe('scores', () => {
    it.each([...Array(16).keys()])('shape %i: the initial episode scores SR 0', async index => {
      const entry = distinctShapes()[index]!
      const sample = findSample(pkg, entry.block, entry.sampleId)
      const initial = await readEpisode(pkg, sample)
      const score = await scoreFinalEpisode({ pkg, sample, finalBytes: initial, finalSource: 'initial', scorer })
      expect(score.state_index).toBe(0)
      expect(score.SR).toBe(0)
    }, SCORE_TIMEOUT_MS)

    it.each([...Array(16).keys()])('shape %i: the GT poses score SR 1, PA 1, SCD < 1e-12', async index => {
      const entry = distinctShapes()[index]!
      const evaluation = await loadEvaluation(pkg, findSample(pkg, entry.block, entry.sampleId))
      const finalPoses = evaluation.gtPoses.map((pose) => {
        const rotation = new Float64Array(9)
        quaternionToMatrix(rotation, pose, 3)
        return { rotation, position: pose.subarray(0, 3) }
      })
      const score = await scorer.score({ partIds: evaluation.partIds, clouds: evaluation.points, gtPoses: evaluation.gtPoses, finalPoses, groups: evaluation.groups, scaleDivisor: evaluation.scaleDivisor })
      expect([score.SR, score.PA]).toEqual([1, 1])
      expect(score.SCD).toBeLessThan(1e-12)
    }, SCORE_TIMEOUT_MS)

    it.each([...Array(20).keys()])('demonstration %i runs in the world runtime: complete → exactly the GT poses, imperfect → SR 0', async index => {
      const entry = generated.entries[index]!
      const sample = findSample(pkg, entry.block, entry.sampleId)
      const out = join(root, 'finals', entry.block, `${entry.slug}.episode.zip`)
      const run = await runCli(['env', 'run', '--episode', join(dir, entry.episodePath), '--calls', join(root, 'demonstrations', entry.demonstrationPath), '--out', out])
      expect(run.code, run.stderr).toBe(0)
      const finalBytes = new Uint8Array(await readFile(out))
      const { quality } = entry.demonstration
      if (quality !== 'complete') {
        const score = await scoreFinalEpisode({ pkg, sample, finalBytes, finalSource: out, scorer })
        expect(score.SR).toBe(0)
        expect(score.PA).toBeLessThan(1)
        return
      }
      // Body pose = GT pose: the runtime stores the GT position and (normalised) quaternion.
      const scene = await readFinalScene({ finalBytes, initialBytes: await readEpisode(pkg, sample), partIds: entry.built.partIds, finalSource: out, initialSource: sample.episodePath })
      const gt = new Float64Array(9)
      scene.poses.forEach((pose, i) => {
        const g = entry.built.prepared.parts[i]!.gtPose
        quaternionToMatrix(gt, g, 3)
        for (let k = 0; k < 3; k++) expect(Math.abs(pose.position[k]! - g[k]!)).toBeLessThan(1e-12)
        for (let k = 0; k < 9; k++) expect(Math.abs(pose.rotation[k]! - gt[k]!)).toBeLessThan(1e-12)
      })
    }, SCORE_TIMEOUT_MS)
  })
})
