// Official aggregation against conformance 10 (scoring.md §14.10) and the Wilson interval of §10.3.
import { describe, expect, it } from 'vitest'
import { summarize, wilsonInterval, type BenchmarkLayout, type SummaryRow } from '../../../src/scoring/index.ts'
import { readVector } from './load-conformance.ts'

interface Vector {
  benchmark: { blocks: { name: string; source: string; samples: Record<string, unknown> }[]; sources: string[] }
  cases: { label: string; rows: SummaryRow[]; summary: Record<string, unknown> }[]
}
const v = readVector('10_bench_summarize.json') as Vector
const layout: BenchmarkLayout = {
  sources: v.benchmark.sources,
  blocks: v.benchmark.blocks.map(b => ({ name: b.name, source: b.source, sampleIds: Object.keys(b.samples) })),
}

/** Deep comparison: same keys in the same order, same null-ness, numbers within 1e-12. */
function expectSame(actual: unknown, expected: unknown, path: string): void {
  if (expected === null || typeof expected !== 'object') {
    if (typeof expected === 'number') {
      expect(typeof actual, path).toBe('number')
      expect(Math.abs((actual as number) - expected), path).toBeLessThanOrEqual(1e-12)
    } else expect(actual, path).toBe(expected)
    return
  }
  expect(actual !== null && typeof actual === 'object', path).toBe(true)
  const a = actual as Record<string, unknown>, e = expected as Record<string, unknown>
  expect(Object.keys(a), path).toEqual(Object.keys(e))
  for (const key of Object.keys(e)) expectSame(a[key], e[key], `${path}.${key}`)
}

describe('summarize (conformance 10)', () => {
  it.each(v.cases.map(c => [c.label, c] as const))('%s', (_label, c) => {
    const summary = summarize(c.rows, layout, { protocol: 'assembly-evaluation-v1' })
    const { blocks } = summary
    const stripped = Object.fromEntries(Object.entries(blocks).map(([k, { SR_wilson95, ...b }]) => {
      const n = b.attempted
      expect(SR_wilson95).toEqual(wilsonInterval(Math.round(b.SR * n), n))
      return [k, b]
    }))
    expectSame({ ...summary, blocks: stripped }, c.summary, 'summary')
  })
  it('takes source names from the layout, not from a hard-coded list', () => {
    const renamed: BenchmarkLayout = { sources: ['x', 'y', 'z', 'w'], blocks: layout.blocks.map(b => ({ ...b, source: { partnet: 'x', 'ikea-manualbook': 'y', 'assemblybench-manualbook': 'z', 'fantastic-breaks-none': 'w' }[b.source]! })) }
    const summary = summarize(v.cases[0]!.rows, renamed, { protocol: 'p' })
    expect(Object.keys(summary.sources!)).toEqual(['x', 'y', 'z', 'w'])
    expect(summary.protocol).toBe('p')
  })
  it('is partial when an attempt is unfinished', () => {
    const rows = v.cases[0]!.rows.map((r, i) => (i === 3 ? { ...r, attempt_finished: false } : r))
    const summary = summarize(rows, layout, { protocol: 'p' })
    expect(summary.status).toBe('partial')
    expect(summary.official_overall).toBeNull()
    expect('sources' in summary).toBe(false)
  })
  it('rejects rows of undeclared samples', () => {
    expect(() => summarize([{ block: 'nope', sample_id: 's', status: 'scored', SCD: 0, PA: 1, SR: 1 }], layout, { protocol: 'p' })).toThrow(/declares no such block/)
  })
})

describe('wilsonInterval (§10.3)', () => {
  it.each([
    [0, 20, 0, 0.16113], [1, 20, 0.00888, 0.23613], [10, 20, 0.2993, 0.7007], [20, 20, 0.83887, 1], [50, 100, 0.40383, 0.59617],
  ])('%i/%i → [%f, %f]', (k, n, low, high) => {
    const [l, h] = wilsonInterval(k, n)
    expect(Math.abs(l - low)).toBeLessThan(5e-6)
    expect(Math.abs(h - high)).toBeLessThan(5e-6)
  })
})
