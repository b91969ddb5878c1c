// Renders a summary as a console table and as Markdown (blocks, sources, official overall); no I/O.
import type { BenchmarkLayout, MetricTriple, Summary } from '../scoring/index.ts'
import type { GateResult } from './gates.ts'

interface Row {
  name: string
  n: string
  scored: string
  SR: string
  SRInterval: string
  PA: string
  SCD: string
}

const HEADERS: Row = { name: 'block', n: 'n', scored: 'scored', SR: 'SR', SRInterval: 'SR 95% (Wilson)', PA: 'PA', SCD: 'SCD' }

function percent(value: number | null | undefined): string {
  return value == null ? '—' : `${(100 * value).toFixed(1)}%`
}

function scd(value: number | null | undefined): string {
  return value == null ? '—' : value < 0.001 && value > 0 ? value.toExponential(2) : value.toFixed(3)
}

function blockRows(summary: Summary, layout: BenchmarkLayout): Row[] {
  return layout.blocks.flatMap((block) => {
    const measured = summary.blocks[block.name]
    if (measured === undefined) return []
    return [{
      name: block.name,
      n: `${measured.attempted}/${measured.expected}`,
      scored: String(measured.scored),
      SR: percent(measured.SR),
      SRInterval: `[${percent(measured.SR_wilson95[0])}, ${percent(measured.SR_wilson95[1])}]`,
      PA: percent(measured.PA),
      SCD: scd(measured.SCD),
    }]
  })
}

function tripleRow(name: string, triple: MetricTriple): Row {
  return { name, n: '', scored: '', SR: percent(triple.SR), SRInterval: '', PA: percent(triple.PA), SCD: scd(triple.SCD) }
}

function aggregateRows(summary: Summary, layout: BenchmarkLayout): Row[] {
  const rows = layout.sources.flatMap(source => (summary.sources?.[source] === undefined ? [] : [tripleRow(`source ${source}`, summary.sources[source])]))
  if (summary.official_overall !== null) rows.push(tripleRow('overall (official)', summary.official_overall))
  return rows
}

/** A fixed-width console table: one line per block, then sources and the official overall. */
export function formatSummaryTable(summary: Summary, layout: BenchmarkLayout): string {
  const body = [...blockRows(summary, layout), ...aggregateRows(summary, layout)]
  const keys = Object.keys(HEADERS) as (keyof Row)[]
  const widths = keys.map(key => Math.max(HEADERS[key].length, ...body.map(row => row[key].length)))
  const line = (row: Row) => keys.map((key, i) => (i === 0 ? row[key].padEnd(widths[i]!) : row[key].padStart(widths[i]!))).join('  ').trimEnd()
  const rule = widths.map(width => '─'.repeat(width)).join('  ')
  const blocks = blockRows(summary, layout).length
  const lines = [line(HEADERS), rule, ...body.slice(0, blocks).map(line)]
  if (body.length > blocks) lines.push(rule, ...body.slice(blocks).map(line))
  lines.push(`${summary.status} run: ${summary.attempted} of ${summary.expected} samples attempted, ${summary.scored} scored (${summary.protocol})${summary.official_overall === null ? '; no official overall (it needs every sample of the package)' : ''}`)
  return lines.join('\n')
}

/** The same summary as GitHub-flavoured Markdown, plus gate outcomes when any were configured. */
export function formatSummaryMarkdown(summary: Summary, layout: BenchmarkLayout, gates: readonly GateResult[] = []): string {
  const body = [...blockRows(summary, layout), ...aggregateRows(summary, layout)]
  const keys = Object.keys(HEADERS) as (keyof Row)[]
  const lines = [
    '## AssemblyWorldBench',
    '',
    `| ${keys.map(key => HEADERS[key]).join(' | ')} |`,
    `| ${keys.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...body.map(row => `| ${keys.map(key => row[key]).join(' | ')} |`),
    '',
    `${summary.status === 'complete' ? 'Complete' : 'Partial'} run: ${summary.attempted} of ${summary.expected} samples attempted, ${summary.scored} scored (${summary.protocol}).${summary.official_overall === null ? ' No official overall: it needs every sample of the package.' : ''}`,
  ]
  if (gates.length > 0) {
    lines.push('', '| gate | measured | result |', '| --- | ---: | --- |')
    for (const gate of gates) lines.push(`| ${gate.gate} | ${gate.measured ?? '—'} | ${gate.status} |`)
  }
  return `${lines.join('\n')}\n`
}
