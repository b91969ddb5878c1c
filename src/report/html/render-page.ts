// Renders the report page: the static tables (block/source/overall with Wilson intervals, paired comparison,
// sample list) plus the embedded data and the inlined page script; pure, strings in, HTML out.
import type { BenchmarkLayout, Summary } from '../../scoring/index.ts'
import type { ReportData, ReportSample } from './report-types.ts'
import { REPORT_STYLE } from './report-style.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
const percent = (v: number | null | undefined) => (v == null ? '—' : `${(100 * v).toFixed(1)}%`)
const num = (v: number | null | undefined, digits = 3) => (v == null ? '—' : v < 1e-3 && v > 0 ? v.toExponential(2) : v.toFixed(digits))

/** JSON inside a `<script>` element: `<` escaped so no `</script>` or comment opener can end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

/** Inline JavaScript: a literal `</script` inside the bundle would end the element. */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1')
}

function summaryTable(summary: Summary, layout: BenchmarkLayout): string {
  const rows = layout.blocks.flatMap((block) => {
    const b = summary.blocks[block.name]
    if (b === undefined) return []
    return [`<tr><td>${escapeHtml(block.name)}</td><td>${b.attempted}/${b.expected}</td><td>${b.scored}</td><td>${percent(b.SR)}</td><td>[${percent(b.SR_wilson95[0])}, ${percent(b.SR_wilson95[1])}]</td><td>${percent(b.PA)}</td><td>${num(b.SCD)}</td></tr>`]
  })
  const triples = [
    ...layout.sources.flatMap(source => (summary.sources?.[source] === undefined ? [] : [[`source ${source}`, summary.sources[source]] as const])),
    ...(summary.official_overall === null ? [] : [['overall (official)', summary.official_overall] as const]),
  ].map(([name, t]) => `<tr class="aggregate"><td>${escapeHtml(name)}</td><td></td><td></td><td>${percent(t.SR)}</td><td></td><td>${percent(t.PA)}</td><td>${num(t.SCD)}</td></tr>`)
  return `<table class="summary"><thead><tr><th>block</th><th>n</th><th>scored</th><th>SR</th><th>SR 95% (Wilson)</th><th>PA</th><th>SCD</th></tr></thead><tbody>${rows.join('')}${triples.join('')}</tbody></table>
<p class="muted">${summary.status} run: ${summary.attempted} of ${summary.expected} samples attempted, ${summary.scored} scored (${escapeHtml(summary.protocol)})${summary.official_overall === null ? '; no official overall (it needs every sample of the package)' : ''}.</p>`
}

function comparisonSection(data: ReportData, baselineName: string | null): string {
  const c = data.comparison
  if (c === null) return ''
  const changed = c.samples.filter(s => s.outcome !== 'tie')
  return `<section id="awb-comparison"><h2>vs baseline ${baselineName === null ? '' : `<code>${escapeHtml(baselineName)}</code>`}</h2>
<p class="verdict ${c.verdict}">${escapeHtml(c.verdict_line.replace(/\*\*/g, ''))}</p>
<table><thead><tr><th>metric</th><th>run</th><th>baseline</th><th>change</th><th>test</th></tr></thead><tbody>
<tr><td>SR</td><td>${num(c.SR.run)}</td><td>${num(c.SR.baseline)}</td><td>${num(c.SR.delta)}</td><td>${c.SR.wins} wins / ${c.SR.losses} losses / ${c.SR.ties} ties, exact McNemar p = ${c.SR.mcnemar_p.toPrecision(3)}</td></tr>
<tr><td>PA</td><td>${num(c.PA.run)}</td><td>${num(c.PA.baseline)}</td><td>${num(c.PA.delta)}</td><td>95% paired bootstrap ${c.PA.ci95 === null ? '—' : `[${num(c.PA.ci95[0])}, ${num(c.PA.ci95[1])}]`}</td></tr>
<tr><td>SCD</td><td>${num(c.SCD.run, 4)}</td><td>${num(c.SCD.baseline, 4)}</td><td>${num(c.SCD.delta, 4)}</td><td>95% paired bootstrap ${c.SCD.ci95 === null ? '—' : `[${num(c.SCD.ci95[0], 4)}, ${num(c.SCD.ci95[1], 4)}]`} (${c.SCD.paired} samples scored in both)</td></tr>
</tbody></table>${changed.length === 0 ? '' : `<p>SR changed on: ${changed.map(s => `${escapeHtml(s.key)} (${s.outcome})`).join(', ')}</p>`}</section>`
}

/** The records check: every flagged sample with what differs, or that every seal held (or that there were none). */
function recordsSection(data: ReportData): string {
  const records = data.records
  if (records === undefined) return ''
  const verdict = records.flagged.length > 0
    ? `<p class="verdict bad"><b class="bad">${records.flagged.length} sample${records.flagged.length === 1 ? '' : 's'} with records that are not to be trusted</b> (changed, planted or removed files since the sample was sealed, or rows unlike the sealed ones); their rows are not the run's:</p><ul>${records.flagged.map(line => `<li><code>${escapeHtml(line)}</code></li>`).join('')}</ul>`
    : records.sealed > 0 ? `<p class="muted">Every recorded sample's files match their seals (${records.sealed} sealed${records.unsealed > 0 ? `, ${records.unsealed} from runs made before seals, unchecked` : ''}).</p>`
      : records.unsealed > 0 ? '<p class="muted">This run was made before seals: its files cannot be checked.</p>' : ''
  return verdict === '' ? '' : `<section id="awb-records"><h2>Records</h2>${verdict}</section>`
}

function sampleRow(sample: ReportSample): string {
  const f = sample.figures
  const best = f === null ? '—' : `${f.best_SR} / ${num(f.best_PA)}${f.regressed ? ' <b class="bad">↓</b>' : ''}`
  return `<tr data-key="${escapeHtml(sample.key)}" class="${sample.status === 'error' ? 'error' : sample.SR === 1 ? 'ok' : 'fail'}${sample.integrity == null ? '' : ' untrusted'}"${sample.integrity == null ? '' : ` title="${escapeHtml(sample.integrity)}"`}><td>${escapeHtml(sample.block)}</td><td>${escapeHtml(sample.sample_id)}</td><td>${sample.SR}</td><td>${num(sample.PA)}</td><td>${num(sample.SCD)}</td><td>${sample.parts_correct ?? '—'}/${sample.parts_total ?? '—'}</td><td>${sample.tool_calls ?? '—'}</td><td>${best}</td>${sample.baseline === null ? '' : `<td>${sample.baseline.SR > 0 ? '+1' : sample.baseline.SR < 0 ? '−1' : '0'} / ${num(sample.baseline.PA)}</td>`}</tr>`
}

export interface RenderPageInput {
  data: ReportData
  summary: Summary
  layout: BenchmarkLayout
  baselineName: string | null
  /** The bundled page script (three.js included). */
  script: string
}

export function renderReportPage(input: RenderPageInput): string {
  const { data } = input
  const hasBaseline = data.comparison !== null
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${escapeHtml(data.title)}</title><style>${REPORT_STYLE}</style></head>
<body><header><h1>${escapeHtml(data.title)}</h1><p class="muted">run <code>${escapeHtml(data.run)}</code> · report written ${escapeHtml(data.generated_at)}</p></header>
<main>${recordsSection(data)}<section id="awb-summary"><h2>Blocks, sources, overall</h2>${summaryTable(input.summary, input.layout)}</section>
${comparisonSection(data, input.baselineName)}
<section id="awb-list"><h2>Samples <span class="muted">(worst first; click a column to sort)</span></h2>
<table id="awb-samples"><thead><tr><th data-sort="block">block</th><th data-sort="sample_id">sample</th><th data-sort="SR">SR</th><th data-sort="PA">PA</th><th data-sort="SCD">SCD</th><th data-sort="parts">parts</th><th data-sort="tool_calls">calls</th><th data-sort="worst">best SR / PA</th>${hasBaseline ? '<th>Δ SR / Δ PA</th>' : ''}</tr></thead>
<tbody>${data.samples.map(sampleRow).join('\n')}</tbody></table></section>
<section id="awb-details"><p class="muted">Select a sample (this page needs JavaScript for the details and the 3D replay).</p></section></main>
<script type="application/json" id="awb-data">${scriptJson(data)}</script>
<script>${inlineScript(input.script)}</script></body></html>
`
}
