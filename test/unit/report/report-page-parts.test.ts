// The report page's parts that Node can render (issue #28): the curve panel says how to get a curve that was not
// computed (never "no recorded calls"), the curve has labelled axes, the viewer's canvas fills its frame and follows
// its size, and the comparison table fills the SCD row.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CURVE_X_LABEL, CURVE_Y_LABEL, curvePanelHtml, curveSvg } from '../../../src/report/html/app/curve-svg.ts'
import { detailsHtml } from '../../../src/report/html/app/details-html.ts'
import { fitToFrame, type FrameSize } from '../../../src/report/html/app/fit-to-frame.ts'
import { curvesNotComputed } from '../../../src/report/html/build-report.ts'
import { renderReportPage } from '../../../src/report/html/render-page.ts'
import { REPORT_STYLE } from '../../../src/report/html/report-style.ts'
import type { ReportData, ReportSample } from '../../../src/report/html/index.ts'
import { curveFigures, type CurveStep } from '../../../src/evaluate/curves/index.ts'
import { comparePaired } from '../../../src/report/paired/index.ts'
import { summarize } from '../../../src/scoring/index.ts'
import { scoredRow } from '../../helpers/metrics-rows.ts'

const step = (k: number, PA: number, SR: number): CurveStep => ({
  call_index: k, tool: 'set_object_pose', call_status: 'completed', elapsed_seconds: k, state_index: k, status: 'scored', error: null, SCD: 0.1, PA, SR, parts_correct: SR, parts_total: 1,
})

const SAMPLE: ReportSample = {
  key: 'b/s1', block: 'b', sample_id: 's1', status: 'scored', error: null, SR: 0, PA: 0.5, SCD: 0.2, parts_correct: 1, parts_total: 2,
  tool_calls: 2, duration_seconds: 1, capture: null, capture_kind: null, pages: [], steps: [], figures: null,
  curve_error: curvesNotComputed('runs/my run'), scene: null, baseline: null,
}

describe('the curve panel', () => {
  it('says how to get a curve that was not computed, with the exact commands, and not "no recorded calls" next to 2 calls', () => {
    const html = curvePanelHtml(SAMPLE, 0)
    expect(html).not.toContain('No recorded calls')
    // The run path is one shell word, quoted, in both commands.
    expect(html).toContain('awb report &#39;runs/my run&#39; --curves')
    expect(html).toContain('awb curves &#39;runs/my run&#39;')
  })

  it('says the curve is empty only when one was computed and the episode recorded no calls', () => {
    expect(curvePanelHtml({ ...SAMPLE, steps: [], figures: curveFigures([]) }, 0)).toContain('No recorded calls')
    expect(curvePanelHtml({ ...SAMPLE, steps: [step(0, 0.5, 0), step(1, 1, 1)], figures: curveFigures([step(0, 0.5, 0), step(1, 1, 1)]) }, 1)).toContain('<svg')
  })

  it('labels both axes: x the tool call (step), y the score with its unit; it scales to its panel', () => {
    const svg = curveSvg([step(0, 0, 0), step(3, 0.5, 0), step(7, 1, 1)], 2)
    expect(CURVE_X_LABEL).toBe('tool call (step)')
    expect(CURVE_Y_LABEL).toBe('score (fraction, 0–1)')
    expect(svg).toContain(`class="axis-label x"`)
    expect(svg).toContain(`>${CURVE_X_LABEL}</text>`)
    expect(svg).toContain(`>${CURVE_Y_LABEL}</text>`)
    // Ticks: 0 to 1 on y, steps 1..3 on x.
    for (const tick of ['>0<', '>0.5<', '>1<', '>2<', '>3<']) expect(svg).toContain(tick)
    // No fixed pixel size: the viewBox and CSS size it.
    expect(svg).not.toMatch(/<svg[^>]* width=/)
    expect(REPORT_STYLE).toMatch(/\.curve \{[^}]*width: 100%/)
  })
})

describe('the 3D viewer frame', () => {
  it('has a canvas with no size of its own, inside a frame it fills (CSS)', () => {
    const html = detailsHtml({ ...SAMPLE, scene: { part_ids: [], geoms: [], states: [] } as unknown as NonNullable<ReportSample['scene']> })
    expect(html).toContain('<div class="frame"><canvas></canvas></div>')
    expect(REPORT_STYLE).toMatch(/\.viewer canvas \{[^}]*width: 100%; height: 100%/)
    expect(REPORT_STYLE).toMatch(/\.viewer \.frame \{[^}]*width: 100%/)
  })

  describe('fitToFrame', () => {
    afterEach(() => { vi.unstubAllGlobals() })

    it('sizes the drawing to the frame now and on every change of the frame, and stops when asked', () => {
      let observed: unknown
      let report: ((entries: { contentRect: FrameSize }[]) => void) | undefined
      let disconnected = false
      vi.stubGlobal('ResizeObserver', class {
        constructor(callback: (entries: { contentRect: FrameSize }[]) => void) { report = callback }
        observe(target: unknown) { observed = target }
        disconnect() { disconnected = true }
      })
      const frame = { clientWidth: 900, clientHeight: 562 }
      const canvas = { parentElement: frame } as unknown as HTMLCanvasElement
      const sizes: FrameSize[] = []
      const stop = fitToFrame(canvas, size => sizes.push(size))
      expect(observed).toBe(frame)
      report!([{ contentRect: { width: 600.4, height: 375 } }])
      // The same size again, and a hidden frame (0 × 0), change nothing.
      report!([{ contentRect: { width: 600, height: 375 } }])
      report!([{ contentRect: { width: 0, height: 0 } }])
      expect(sizes).toEqual([{ width: 900, height: 562 }, { width: 600, height: 375 }])
      stop()
      expect(disconnected).toBe(true)
    })
  })
})

describe('the comparison table of the page', () => {
  it('fills the SCD row\'s run and baseline cells', () => {
    const run = [scoredRow({ block: 'b', sample_id: 's1', SR: 1, PA: 1, SCD: 0.1 }), scoredRow({ block: 'b', sample_id: 's2', SR: 0, PA: 0.5, SCD: 0.3 })]
    const baseline = [scoredRow({ block: 'b', sample_id: 's1', SR: 0, PA: 0.5, SCD: 0.5 }), scoredRow({ block: 'b', sample_id: 's2', SR: 0, PA: 0.5, SCD: 0.7 })]
    const data: ReportData = { title: 't', run: '/runs/x', generated_at: '2026-01-01T00:00:00.000Z', samples: [], comparison: comparePaired(run, baseline) }
    const layout = { sources: ['s'], blocks: [{ name: 'b', source: 's', sampleIds: ['s1', 's2'] }] }
    const html = renderReportPage({ data, summary: summarize(run, layout, { protocol: 'assembly-evaluation-v1' }), layout, baselineName: 'base', script: '' })
    expect(html).toContain('<tr><td>SCD</td><td>0.2000</td><td>0.6000</td><td>-0.4000</td>')
  })
})
