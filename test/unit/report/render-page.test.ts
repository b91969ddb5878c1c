// The report page shell: embedded data and the inlined script cannot end their <script> elements early, text is
// escaped, and the summary table carries the Wilson intervals.
import { describe, expect, it } from 'vitest'
import { renderReportPage } from '../../../src/report/html/render-page.ts'
import type { ReportData, ReportSample } from '../../../src/report/html/index.ts'
import { summarize } from '../../../src/scoring/index.ts'

const HOSTILE = '</script><script>alert(1)</script><!--'

const sample: ReportSample = {
  key: `b/${HOSTILE}`, block: 'b', sample_id: HOSTILE, status: 'scored', error: null, SR: 1, PA: 1, SCD: 0, parts_correct: 2, parts_total: 2,
  tool_calls: 3, duration_seconds: 1, capture: null, capture_kind: null, pages: [], steps: [], figures: null, curve_error: null, scene: null, baseline: null,
}

describe('renderReportPage', () => {
  it('keeps hostile text inside its elements and the Wilson interval in the table', () => {
    const data: ReportData = { title: 'run <x>', run: '/runs/x', generated_at: '2026-01-01T00:00:00.000Z', samples: [sample], comparison: null }
    const layout = { sources: ['s'], blocks: [{ name: 'b', source: 's', sampleIds: [HOSTILE] }] }
    const summary = summarize([{ block: 'b', sample_id: HOSTILE, status: 'scored', SR: 1, PA: 1, SCD: 0 }], layout, { protocol: 'assembly-evaluation-v1' })
    const html = renderReportPage({ data, summary, layout, baselineName: null, script: 'const s = "</script>"; window.x = 1' })
    // Exactly the two real script elements end: the data and the page script.
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('<title>run &#60;x&#62;</title>')
    const json = html.slice(html.indexOf('id="awb-data">') + 'id="awb-data">'.length, html.indexOf('</script>'))
    expect((JSON.parse(json) as ReportData).samples[0]!.sample_id).toBe(HOSTILE)
    // 1 of 1: Wilson [0.2065, 1].
    expect(html).toContain('[20.7%, 100.0%]')
  })
})
