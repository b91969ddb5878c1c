// Official aggregation of per-sample rows into summary.json (scoring.md §10) plus Wilson intervals; no I/O, no scoring.
import { compareCodePoints } from '../shared/code-points.ts'
import { sampleKey } from '../shared/sample-key.ts'
import { ScoringError } from './errors.ts'

/** The fields of a metrics row that aggregation reads (§9.2); other fields are ignored. */
export interface SummaryRow {
  block: string
  sample_id: string
  status: string
  SCD: number | null
  PA: number
  SR: number
  duration_seconds?: number | null
  cost_usd?: number | null
  tool_calls?: number | null
  usage?: Readonly<Record<string, unknown>> | null
  /** False when the selected attempt is still `running` (then the run set is partial). */
  attempt_finished?: boolean
}

/** The package as aggregation sees it: sources and blocks in package order, each block's declared sample ids. */
export interface BenchmarkLayout {
  sources: readonly string[]
  blocks: readonly { name: string; source: string; sampleIds: readonly string[] }[]
}

export interface MetricTriple {
  SCD: number | null
  PA: number | null
  SR: number | null
}

export interface BlockSummary {
  attempted: number
  expected: number
  scored: number
  SCD: number | null
  PA: number
  SR: number
  /** Wilson score 95 % interval of SR over the block's rows (§10.3; not official). */
  SR_wilson95: [number, number]
}

export interface ResourceMean {
  reported_samples: number
  mean: number | null
}

export interface Summary {
  protocol: string
  status: 'complete' | 'partial'
  attempted: number
  expected: number
  scored: number
  blocks: Record<string, BlockSummary>
  official_overall: MetricTriple | null
  resource_accounting: string
  sources?: Record<string, MetricTriple>
  resources: { duration_seconds: ResourceMean; cost_usd: ResourceMean; tool_calls: ResourceMean }
  token_usage: Record<string, ResourceMean>
}

export interface SummarizeOptions {
  /** Protocol marker written as `protocol` (the package's output marker, e.g. `assembly-evaluation-v1`). */
  protocol: string
}

/** z for a two-sided 95 % interval (§10.3). */
export const WILSON_Z_95 = 1.959963984540054
export const RESOURCE_ACCOUNTING = 'Selected final attempt only; unknown values remain null'

/** Wilson score interval [low, high] for k successes out of n > 0 trials (§10.3). */
export function wilsonInterval(successes: number, trials: number, z = WILSON_Z_95): [number, number] {
  const p = successes / trials
  const z2 = z * z
  const denominator = 1 + z2 / trials
  const centre = (p + z2 / (2 * trials)) / denominator
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator
  return [Math.max(0, centre - half), Math.min(1, centre + half)]
}

/**
 * summary.json of §10.2 from the selected rows. Block metrics: SCD over scored rows, PA/SR over all rows; sources
 * average their blocks; the official overall averages the sources — both only when the run set is complete.
 * Throws `SCORING_BAD_INPUT` for a row whose block or sample the package does not declare, or a duplicate row.
 */
export function summarize(rows: readonly SummaryRow[], benchmark: BenchmarkLayout, options: SummarizeOptions): Summary {
  const declared = new Map(benchmark.blocks.map(b => [b.name, new Set(b.sampleIds)]))
  const byBlock = new Map<string, SummaryRow[]>()
  const seen = new Set<string>()
  for (const row of rows) {
    const samples = declared.get(row.block)
    if (samples === undefined || !samples.has(row.sample_id)) {
      throw new ScoringError('SCORING_BAD_INPUT', `row ${row.block}/${row.sample_id}: the package declares no such block or sample; score rows against the package they came from`)
    }
    const key = sampleKey(row.block, row.sample_id)
    if (seen.has(key)) throw new ScoringError('SCORING_BAD_INPUT', `row ${row.block}/${row.sample_id}: appears twice; select one attempt per sample`)
    seen.add(key)
    const list = byBlock.get(row.block) ?? []
    list.push(row)
    byBlock.set(row.block, list)
  }
  const expected = benchmark.blocks.reduce((sum, b) => sum + b.sampleIds.length, 0)
  const blocks: Record<string, BlockSummary> = {}
  for (const block of benchmark.blocks) {
    const list = byBlock.get(block.name)
    if (list === undefined) continue
    const scored = list.filter(r => r.status === 'scored')
    const srSum = list.reduce((s, r) => s + r.SR, 0)
    blocks[block.name] = {
      attempted: list.length,
      expected: block.sampleIds.length,
      scored: scored.length,
      SCD: scored.length === 0 ? null : mean(scored.map(r => r.SCD ?? Number.NaN)),
      PA: mean(list.map(r => r.PA)),
      SR: srSum / list.length,
      SR_wilson95: wilsonInterval(srSum, list.length),
    }
  }
  const complete = rows.length === expected && rows.every(r => r.attempt_finished !== false)
  let sources: Record<string, MetricTriple> | undefined
  let overall: MetricTriple | null = null
  if (complete) {
    sources = {}
    for (const source of benchmark.sources) {
      const members = benchmark.blocks.filter(b => b.source === source).map(b => blocks[b.name]!)
      sources[source] = {
        SCD: meanOrNull(members.map(b => b.SCD)),
        PA: meanOrNull(members.map(b => b.PA)),
        SR: meanOrNull(members.map(b => b.SR)),
      }
    }
    const list = Object.values(sources)
    overall = { SCD: meanOrNull(list.map(s => s.SCD)), PA: meanOrNull(list.map(s => s.PA)), SR: meanOrNull(list.map(s => s.SR)) }
  }
  const summary: Summary = {
    protocol: options.protocol,
    status: complete ? 'complete' : 'partial',
    attempted: rows.length,
    expected,
    scored: rows.filter(r => r.status === 'scored').length,
    blocks,
    official_overall: overall,
    resource_accounting: RESOURCE_ACCOUNTING,
    resources: {
      duration_seconds: resourceMean(rows.map(r => r.duration_seconds)),
      cost_usd: resourceMean(rows.map(r => r.cost_usd)),
      tool_calls: resourceMean(rows.map(r => r.tool_calls)),
    },
    token_usage: tokenUsage(rows),
  }
  if (sources !== undefined) {
    // Key order of §10.2: `sources` sits between `resource_accounting` and `resources`.
    const { resources, token_usage, ...head } = summary
    return { ...head, sources, resources, token_usage }
  }
  return summary
}

function mean(values: readonly number[]): number {
  let sum = 0
  for (const v of values) sum += v
  return sum / values.length
}

function meanOrNull(values: readonly (number | null)[]): number | null {
  if (values.length === 0 || values.some(v => v === null)) return null
  return mean(values as number[])
}

function resourceMean(values: readonly (number | null | undefined)[]): ResourceMean {
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
  return { reported_samples: known.length, mean: known.length === 0 ? null : mean(known) }
}

/** Every `*_tokens` key of any row's `usage`, in code-point order. */
function tokenUsage(rows: readonly SummaryRow[]): Record<string, ResourceMean> {
  const keys = new Set<string>()
  for (const row of rows) for (const key of Object.keys(row.usage ?? {})) if (key.endsWith('_tokens')) keys.add(key)
  const out: Record<string, ResourceMean> = {}
  for (const key of [...keys].sort(compareCodePoints)) {
    out[key] = resourceMean(rows.map(r => {
      const v = r.usage?.[key]
      return typeof v === 'number' ? v : null
    }))
  }
  return out
}
