// Paired comparison of two small runs against hand-computed values: wins/losses/ties, exact McNemar p, means,
// deltas, bootstrap intervals, the verdict and the vs_baseline gate.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMetricsRows } from '../../../src/report/columnar/index.ts'
import { errorRow, scoredRow } from '../../helpers/metrics-rows.ts'
import { checkBaselineGate, comparePaired, formatComparisonMarkdown, mcnemarExact, pairedBootstrap95, type PairedComparison } from '../../../src/report/paired/index.ts'

type Row = [sample: string, SR: number, PA: number, SCD: number | null]

const row = ([sample, SR, PA, SCD]: Row) => (SCD === null ? errorRow({ block: 'b', sample_id: sample }) : scoredRow({ block: 'b', sample_id: sample, SR, PA, SCD }))

const RUN: Row[] = [['s1', 1, 1, 0.1], ['s2', 1, 1, 0.2], ['s3', 0, 0.5, 1], ['s4', 1, 1, 0.3], ['s5', 0, 0, null], ['s6', 1, 1, 0.1]]
const BASELINE: Row[] = [['s1', 0, 0.5, 2.1], ['s2', 0, 0.75, 0.7], ['s3', 1, 1, 0.5], ['s4', 1, 1, 0.3], ['s5', 0, 0.25, 3], ['s7', 0, 0, 9]]

let work: string
let comparison: PairedComparison

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'awb-paired-'))
  const dirs = { run: join(work, 'run-dir'), baseline: join(work, 'baseline-dir') }
  await mkdir(dirs.run)
  await mkdir(dirs.baseline)
  await writeFile(join(dirs.run, 'metrics.jsonl'), RUN.map(r => JSON.stringify(row(r))).join('\n'))
  await writeFile(join(dirs.baseline, 'metrics.jsonl'), BASELINE.map(r => JSON.stringify(row(r))).join('\n'))
  comparison = comparePaired((await readMetricsRows(dirs.run))!, (await readMetricsRows(dirs.baseline))!)
})

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

describe('mcnemarExact', () => {
  it('matches the two-sided binomial test by hand', () => {
    expect(mcnemarExact(0, 0)).toBe(1)
    expect(mcnemarExact(5, 0)).toBe(2 / 32)
    expect(mcnemarExact(0, 5)).toBe(2 / 32)
    expect(mcnemarExact(6, 1)).toBe(2 * (1 + 7) / 128)
    expect(mcnemarExact(10, 2)).toBeCloseTo(2 * (1 + 12 + 66) / 4096, 15)
    expect(mcnemarExact(2, 1)).toBe(1)
  })
})

describe('pairedBootstrap95', () => {
  it('is the constant itself for constant differences, empty for none, and deterministic', () => {
    const [low, high] = pairedBootstrap95([0.25, 0.25, 0.25, 0.25])!
    expect([low, high]).toEqual([0.25, 0.25])
    expect(pairedBootstrap95([])).toBeNull()
    expect(pairedBootstrap95([0.5, 0.25, -0.5, 0, -0.25])).toEqual(pairedBootstrap95([0.5, 0.25, -0.5, 0, -0.25]))
  })
})

describe('comparePaired on two small runs', () => {
  it('pairs the shared samples and counts wins, losses and ties', () => {
    expect(comparison.paired).toBe(5)
    expect(comparison.only_in_run).toEqual(['b/s6'])
    expect(comparison.only_in_baseline).toEqual(['b/s7'])
    expect(comparison.samples.map(s => [s.sample_id, s.outcome])).toEqual([['s1', 'win'], ['s2', 'win'], ['s3', 'loss'], ['s4', 'tie'], ['s5', 'tie']])
    // 3 discordant pairs, min 1: 2 · (C(3,0) + C(3,1)) / 2³ = 1.
    expect(comparison.SR).toEqual({ run: 0.6, baseline: 0.4, delta: 0.2, wins: 2, losses: 1, ties: 2, mcnemar_p: 1 })
  })

  it('takes PA and SCD deltas per sample (SCD only where both were scored)', () => {
    expect(comparison.samples.map(s => s.delta.PA)).toEqual([0.5, 0.25, -0.5, 0, -0.25])
    expect(comparison.samples.map(s => s.delta.SCD)).toEqual([0.1 - 2.1, 0.2 - 0.7, 0.5, 0, null])
    expect(comparison.PA.run).toBeCloseTo(0.7, 15)
    expect(comparison.PA.baseline).toBeCloseTo(0.7, 15)
    expect(comparison.PA.delta).toBeCloseTo(0, 15)
    expect(comparison.SCD.paired).toBe(4)
    expect(comparison.SCD.delta).toBeCloseTo(-0.5, 15)
    const [low, high] = comparison.PA.ci95!
    expect(low).toBeLessThan(0)
    expect(high).toBeGreaterThan(0)
    expect(low).toBeGreaterThanOrEqual(-0.5)
    expect(high).toBeLessThanOrEqual(0.5)
  })

  it('says no significant change in one line, and in the Markdown section', () => {
    expect(comparison.verdict).toBe('no-significant-change')
    expect(comparison.verdict_line).toContain('5 paired samples: no significant change — SR +20.0 pts (2 wins, 1 losses, 2 ties; exact McNemar p = 1.00)')
    expect(comparison.verdict_line).toContain('2 unpaired samples left out')
    const markdown = formatComparisonMarkdown(comparison, 'runs/base')
    expect(markdown).toContain('### vs baseline `runs/base`')
    expect(markdown).toContain('| b/s3 | 1 → 0 (loss) | -0.500 |')
  })

  it('fills the SCD row\'s run and baseline cells with the means over the samples scored in both (issue #28)', () => {
    // Scored in both: s1 (0.1 vs 2.1), s2 (0.2 vs 0.7), s3 (1 vs 0.5), s4 (0.3 vs 0.3); s5 failed in the run.
    expect(comparison.SCD.run).toBeCloseTo(0.4, 15)
    expect(comparison.SCD.baseline).toBeCloseTo(0.9, 15)
    expect(comparison.SCD.delta).toBeCloseTo(comparison.SCD.run! - comparison.SCD.baseline!, 15)
    const scdRow = formatComparisonMarkdown(comparison, 'runs/base').split('\n').find(line => line.startsWith('| SCD |'))
    expect(scdRow).toMatch(/^\| SCD \| 0\.4000 \| 0\.9000 \| -0\.5000 \| 95 % paired bootstrap .* over 4 samples scored in both \|$/)
    // No sample scored in both: the cells say so, they are not left empty.
    const none = comparePaired([row(['s1', 0, 0, null])], [row(['s1', 1, 1, 0.5])])
    expect(none.SCD).toMatchObject({ paired: 0, run: null, baseline: null, delta: null })
    expect(formatComparisonMarkdown(none, 'runs/base')).toContain('| SCD | — | — | — |')
  })
})

describe('checkBaselineGate', () => {
  const worse = comparePaired(
    Array.from({ length: 10 }, (_, i) => row([`s${i}`, i < 2 ? 1 : 0, 0.5, 1])),
    Array.from({ length: 10 }, (_, i) => row([`s${i}`, 1, 1, 0.5])),
  )

  it('fails a run significantly worse by more than the margin, and only then', () => {
    // 0 wins, 8 losses: p = 2 / 2⁸; SR change −0.8.
    expect(worse.SR.mcnemar_p).toBe(2 / 256)
    expect(worse.verdict).toBe('worse')
    expect(checkBaselineGate(worse, { SR: -0.05 })).toEqual([{ gate: 'vs_baseline SR change ≥ -0.05 (unless not significant)', measured: -0.8, status: 'failed' }])
    expect(checkBaselineGate(worse, { SR: -0.9 })[0]!.status).toBe('passed')
    expect(checkBaselineGate(worse, { PA: -0.05, SCD: 0.1 }).map(r => r.status)).toEqual(['failed', 'failed'])
    expect(checkBaselineGate(worse, { PA: -0.6, SCD: 0.6 }).map(r => r.status)).toEqual(['passed', 'passed'])
  })

  it('passes a change that is not significant, and is not measured without a baseline', () => {
    expect(checkBaselineGate(comparison, { SR: 0.5 })[0]!.status).toBe('passed')
    expect(checkBaselineGate(null, { SR: -0.05 })[0]!.status).toBe('not-measured')
  })
})
