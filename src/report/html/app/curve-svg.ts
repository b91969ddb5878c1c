// Draws a sample's score curve (PA line, SR markers, best state) as an SVG string; page code, no DOM access.
import type { CurveStep } from '../../../evaluate/curves/index.ts'

const WIDTH = 560
const HEIGHT = 180
const PAD = 28

/** PA (line) and SR (filled dots at 1) against the call index; `current` marks the viewer's step. */
export function curveSvg(steps: readonly CurveStep[], current: number): string {
  if (steps.length === 0) return '<p class="muted">No recorded calls: the curve is empty.</p>'
  const x = (i: number) => PAD + (steps.length === 1 ? 0 : (i * (WIDTH - 2 * PAD)) / (steps.length - 1))
  const y = (v: number) => HEIGHT - PAD - v * (HEIGHT - 2 * PAD)
  const line = steps.map((s, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(s.PA).toFixed(1)}`).join(' ')
  const dots = steps.map((s, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(s.SR).toFixed(1)}" r="4" class="${s.SR === 1 ? 'sr1' : 'sr0'}"><title>call ${s.call_index} ${s.tool}: SR ${s.SR}, PA ${s.PA.toFixed(3)}, SCD ${s.SCD === null ? '—' : s.SCD.toPrecision(3)}</title></circle>`).join('')
  const marker = current >= 0 && current < steps.length ? `<line x1="${x(current)}" x2="${x(current)}" y1="${PAD - 6}" y2="${HEIGHT - PAD}" class="now"/>` : ''
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" class="curve" role="img" aria-label="score curve">
<line x1="${PAD}" x2="${WIDTH - PAD}" y1="${y(0)}" y2="${y(0)}" class="axis"/><line x1="${PAD}" x2="${WIDTH - PAD}" y1="${y(1)}" y2="${y(1)}" class="grid"/>
<text x="4" y="${y(1) + 4}">1</text><text x="4" y="${y(0) + 4}">0</text><text x="${WIDTH - PAD}" y="${HEIGHT - 6}" text-anchor="end">call</text>
${marker}<path d="${line}" class="pa"/>${dots}
<text x="${PAD}" y="14" class="legend">— PA   ● SR</text></svg>`
}
