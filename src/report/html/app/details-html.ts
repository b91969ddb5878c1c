// The details panel of one sample (figures, viewer frame, curve panel, timeline, capture, pages) as an HTML string;
// page code without DOM access, so Node tests render it too. The page script fills the curve and the viewer in.
import type { ReportSample } from '../report-types.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)

/** A number as the panel shows it: whole numbers as they are, tiny ones in exponent form, `—` for none. */
export const fmt = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? '—' : Number.isInteger(v) ? String(v) : v < 1e-3 && v > 0 ? v.toExponential(2) : v.toFixed(digits))

/**
 * The panel's HTML. The viewer's canvas has no size of its own: it fills `.frame` (CSS), and the viewer follows the
 * frame's size (`fitToFrame`), so the drawing is never stretched. Without a curve, the curve panel (`.awb-curve`,
 * filled by `curvePanelHtml`) says why; the figures list is left out rather than saying it twice.
 */
export function detailsHtml(sample: ReportSample): string {
  const f = sample.figures
  const figures = f === null
    ? ''
    : `<ul class="figures"><li>final SR ${fmt(f.final_SR)}, PA ${fmt(f.final_PA)}</li><li>best ever SR ${fmt(f.best_SR)}, PA ${fmt(f.best_PA)} at call ${fmt(f.best_call_index)}</li>
<li>first SR 1 at call ${fmt(f.first_SR1_call_index)}</li><li>${fmt(f.steps_after_best)} calls after the best state${f.regressed ? ' <b class="bad">(regressed: the agent undid a better state)</b>' : ''}</li></ul>`
  const baseline = sample.baseline === null ? '' : `<p>vs baseline: SR ${fmt(sample.baseline.SR)}, PA ${sample.baseline.PA >= 0 ? '+' : ''}${fmt(sample.baseline.PA)}, SCD ${fmt(sample.baseline.SCD)} (this run − baseline)</p>`
  const viewer = sample.scene === null
    ? '<p class="muted">No 3D replay for this sample.</p>'
    : `<div class="viewer"><div class="frame"><canvas></canvas></div><div class="controls">
<button class="awb-prev" type="button">◀</button><input class="awb-slider" type="range" min="0" max="${Math.max(0, sample.steps.length - 1)}" value="0"><button class="awb-next" type="button">▶</button>
<label><input class="awb-gt" type="checkbox"> aligned ground truth</label> <span class="awb-step"></span></div>
<p class="muted">Green: part correct at this step; red: not; blue: the ground truth placed by this step's alignment.</p></div>`
  const timeline = sample.steps.length === 0 ? '' : `<h3>Tool-call timeline</h3><table class="timeline"><thead><tr><th>#</th><th>call</th><th>tool</th><th>t (s)</th><th>call status</th><th>SR</th><th>PA</th><th>SCD</th><th>parts</th></tr></thead><tbody>
${sample.steps.map((s, k) => `<tr data-step="${k}"><td>${k + 1}</td><td>${s.call_index}</td><td>${escapeHtml(s.tool)}</td><td>${s.elapsed_seconds.toFixed(2)}</td><td>${s.call_status}</td><td>${s.SR}</td><td>${fmt(s.PA)}</td><td>${fmt(s.SCD)}</td><td>${s.parts_correct}/${s.parts_total}</td></tr>`).join('\n')}</tbody></table>`
  const captureNote = sample.capture_kind === 'final' ? 'capture_scene of the final state (its agent camera), rendered when this report was written' : 'the agent\'s last capture_scene image'
  const capture = sample.capture === null ? '<p class="muted">No capture: the final scene could not be rendered and the agent took none; the replay above shows it.</p>' : `<figure><img class="capture" src="${escapeHtml(sample.capture)}" alt="final capture"><figcaption>${captureNote}</figcaption></figure>`
  const pages = sample.pages.length === 0 ? '<p class="muted">This block has no reference pages.</p>' : sample.pages.map((p, i) => `<figure><img src="${escapeHtml(p)}" alt="reference page ${i + 1}"><figcaption>page ${i + 1}</figcaption></figure>`).join('')
  return `<h2>${escapeHtml(sample.block)} / ${escapeHtml(sample.sample_id)}</h2>
<p>${sample.status === 'error' ? `<b class="bad">error</b>: ${escapeHtml(sample.error ?? '')}` : `SR ${sample.SR}, PA ${fmt(sample.PA)}, SCD ${fmt(sample.SCD)}, ${sample.parts_correct}/${sample.parts_total} parts correct, ${fmt(sample.tool_calls)} tool calls`}</p>
${baseline}${figures}${viewer}<div class="awb-curve"></div>${timeline}
<h3>Final capture</h3>${capture}<h3>Reference pages</h3><div class="pages">${pages}</div>`
}
