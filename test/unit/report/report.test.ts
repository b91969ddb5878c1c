import { describe, expect, it } from 'vitest'
import { checkGates, formatSummaryMarkdown, formatSummaryTable } from '../../../src/report/index.ts'
import { summarize, type BenchmarkLayout, type SummaryRow } from '../../../src/scoring/index.ts'

const LAYOUT: BenchmarkLayout = {
  sources: ['partnet', 'ikea'],
  blocks: [
    { name: 'partnet-none', source: 'partnet', sampleIds: ['1', '2'] },
    { name: 'partnet-final-image', source: 'partnet', sampleIds: ['1', '2'] },
    { name: 'ikea-manualbook', source: 'ikea', sampleIds: ['A/a', 'B/b'] },
  ],
}

function row(block: string, sampleId: string, SR: 0 | 1, PA: number, SCD: number | null): SummaryRow {
  return SCD === null ? { block, sample_id: sampleId, status: 'error', SCD, PA: 0, SR: 0 } : { block, sample_id: sampleId, status: 'scored', SCD, PA, SR }
}

const COMPLETE = summarize([
  row('partnet-none', '1', 1, 1, 0.5), row('partnet-none', '2', 0, 0.5, 10),
  row('partnet-final-image', '1', 1, 1, 0.1), row('partnet-final-image', '2', 1, 1, 0.2),
  row('ikea-manualbook', 'A/a', 1, 1, 1), row('ikea-manualbook', 'B/b', 0, 0, null),
], LAYOUT, { protocol: 'assembly-evaluation-v1' })
const PARTIAL = summarize([row('ikea-manualbook', 'A/a', 1, 1, 1)], LAYOUT, { protocol: 'assembly-evaluation-v1' })

describe('checkGates', () => {
  it('passes and fails gates on blocks (with a * default), sources and the overall; SCD is a maximum', () => {
    const results = checkGates(COMPLETE, {
      blocks: { '*': { SR: 0.5 }, 'partnet-none': { PA: 0.8, SCD: 1 } },
      sources: { ikea: { SR: 0.6 } },
      overall: { SR: 0.6, SCD: 10 },
    }, LAYOUT.blocks.map(b => b.name), LAYOUT.sources)
    expect(results.map(r => `${r.gate}: ${r.status} (${r.measured})`)).toEqual([
      'block partnet-none SR ≥ 0.5: passed (0.5)',
      'block partnet-none PA ≥ 0.8: failed (0.75)',
      'block partnet-none SCD ≤ 1: failed (5.25)',
      'block partnet-final-image SR ≥ 0.5: passed (1)',
      'block ikea-manualbook SR ≥ 0.5: passed (0.5)',
      'source ikea SR ≥ 0.6: failed (0.5)',
      'overall SR ≥ 0.6: passed (0.625)',
      'overall SCD ≤ 10: passed (1.85)',
    ])
  })

  it('reports gates a partial run cannot measure as not-measured, never as passed', () => {
    const results = checkGates(PARTIAL, { blocks: { 'partnet-none': { SR: 1 } }, sources: { ikea: { SR: 0 } }, overall: { SR: 0 } }, LAYOUT.blocks.map(b => b.name), LAYOUT.sources)
    expect(results.map(r => r.status)).toEqual(['not-measured', 'not-measured', 'not-measured'])
  })
})

describe('formatSummaryTable / formatSummaryMarkdown', () => {
  it('lists each block with n, scored, SR and its Wilson interval, PA, SCD, then sources and the official overall', () => {
    const table = formatSummaryTable(COMPLETE, LAYOUT)
    const lines = table.split('\n')
    expect(lines[0]).toMatch(/^block\s+n\s+scored\s+SR\s+SR 95% \(Wilson\)\s+PA\s+SCD$/)
    expect(lines.find(l => l.startsWith('ikea-manualbook'))).toMatch(/2\/2\s+1\s+50\.0%\s+\[9\.5%, 90\.5%\]\s+50\.0%\s+1\.000$/)
    expect(lines.find(l => l.startsWith('overall (official)'))).toMatch(/62\.5%\s+68\.8%\s+1\.850$/)
    expect(lines.at(-1)).toBe('complete run: 6 of 6 samples attempted, 5 scored (assembly-evaluation-v1)')
  })

  it('marks a partial run and omits blocks that did not run', () => {
    const table = formatSummaryTable(PARTIAL, LAYOUT)
    expect(table).not.toContain('partnet-none')
    expect(table).toContain('partial run: 1 of 6 samples attempted, 1 scored (assembly-evaluation-v1); no official overall')
    expect(table).not.toContain('overall (official)')
    const markdown = formatSummaryMarkdown(PARTIAL, LAYOUT, [{ gate: 'overall SR ≥ 0.5', measured: null, status: 'not-measured' }])
    expect(markdown).toContain('| ikea-manualbook | 1/2 | 1 | 100.0% |')
    expect(markdown).toContain('| overall SR ≥ 0.5 | — | not-measured |')
  })
})
