// Draws a sample's score curve (PA line, SR markers, labelled axes, the viewer's step) as an SVG string, or says why
// there is none; page code, no DOM access.
import type { CurveStep } from '../../../evaluate/curves/index.ts'
import type { ReportSample } from '../report-types.ts'

/** viewBox size: the SVG scales to its panel's width (CSS), so these only set the aspect and the text's size. */
const WIDTH = 560
const HEIGHT = 200
/** Room for the y axis's ticks and label at the left, the x axis's at the bottom. */
const PAD_LEFT = 52
const PAD_RIGHT = 12
const PAD_TOP = 22
const PAD_BOTTOM = 40
/** Y ticks: PA is a fraction of the parts, SR is 0 or 1, so one scale from 0 to 1 serves both. */
const Y_TICKS = [0, 0.25, 0.5, 0.75, 1]
/** At most this many x tick labels, so call numbers never overlap. */
const MAX_X_TICKS = 8

export const CURVE_X_LABEL = 'tool call (step)'
export const CURVE_Y_LABEL = 'score (fraction, 0–1)'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)

/**
 * The curve panel of a sample. A curve that was computed is drawn (and one with no steps says the episode recorded
 * no calls); a sample without a computed curve shows why and how to get one (`curve_error`, written by Node with the
 * exact command), never "no recorded calls": a curve not computed says nothing about the calls.
 */
export function curvePanelHtml(sample: Pick<ReportSample, 'steps' | 'figures' | 'curve_error'>, current: number): string {
  if (sample.figures === null) return `<p class="muted awb-no-curve">No curve: ${escapeHtml(sample.curve_error ?? 'not computed for this sample')}</p>`
  return curveSvg(sample.steps, current)
}

/** PA (line) and SR (dots, 0 or 1) against the step (its call index in the title); `current` marks the viewer's step. */
export function curveSvg(steps: readonly CurveStep[], current: number): string {
  if (steps.length === 0) return '<p class="muted">No recorded calls: the curve is empty.</p>'
  const plotWidth = WIDTH - PAD_LEFT - PAD_RIGHT
  const plotHeight = HEIGHT - PAD_TOP - PAD_BOTTOM
  const x = (i: number) => PAD_LEFT + (steps.length === 1 ? plotWidth / 2 : (i * plotWidth) / (steps.length - 1))
  const y = (v: number) => PAD_TOP + (1 - v) * plotHeight
  const line = steps.map((s, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(s.PA).toFixed(1)}`).join(' ')
  const dots = steps.map((s, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(s.SR).toFixed(1)}" r="4" class="${s.SR === 1 ? 'sr1' : 'sr0'}"><title>step ${i + 1}, call ${s.call_index} ${escapeHtml(s.tool)}: SR ${s.SR}, PA ${s.PA.toFixed(3)}, SCD ${s.SCD === null ? '—' : s.SCD.toPrecision(3)}</title></circle>`).join('')
  const yTicks = Y_TICKS.map(v => `<line x1="${PAD_LEFT}" x2="${WIDTH - PAD_RIGHT}" y1="${y(v)}" y2="${y(v)}" class="${v === 0 ? 'axis' : 'grid'}"/><text x="${PAD_LEFT - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`).join('')
  // Steps are numbered from 1 as the timeline numbers them; every k-th is labelled, and always the last.
  const every = Math.max(1, Math.ceil(steps.length / MAX_X_TICKS))
  const xTicks = steps.flatMap((_, i) => (i % every === 0 || i === steps.length - 1 ? [`<line x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${y(0)}" y2="${y(0) + 4}" class="axis"/><text x="${x(i).toFixed(1)}" y="${y(0) + 16}" text-anchor="middle">${i + 1}</text>`] : [])).join('')
  const marker = current >= 0 && current < steps.length ? `<line x1="${x(current)}" x2="${x(current)}" y1="${PAD_TOP - 6}" y2="${y(0)}" class="now"/>` : ''
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" class="curve" role="img" aria-label="score curve: PA and SR after each tool call">
<line x1="${PAD_LEFT}" x2="${PAD_LEFT}" y1="${PAD_TOP}" y2="${y(0)}" class="axis"/>${yTicks}${xTicks}
<text class="axis-label x" x="${PAD_LEFT + plotWidth / 2}" y="${HEIGHT - 4}" text-anchor="middle">${CURVE_X_LABEL}</text>
<text class="axis-label y" x="0" y="0" transform="translate(12 ${PAD_TOP + plotHeight / 2}) rotate(-90)" text-anchor="middle">${CURVE_Y_LABEL}</text>
${marker}<path d="${line}" class="pa"/>${dots}
<text x="${WIDTH - PAD_RIGHT}" y="14" text-anchor="end" class="legend">— PA (fraction of parts correct)   ● SR (1: solved)</text></svg>`
}
