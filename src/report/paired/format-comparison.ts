// Renders a paired comparison as Markdown (summary.md, PR comments); no I/O.
import type { PairedComparison } from './paired-comparison.ts'

const num = (v: number | null, digits: number) => (v === null ? '—' : v.toFixed(digits))

/** The verdict line, the SR/PA/SCD table and the samples whose SR changed. */
export function formatComparisonMarkdown(c: PairedComparison, baselineName: string): string {
  const changed = c.samples.filter(s => s.outcome !== 'tie')
  const lines = [
    `### vs baseline \`${baselineName}\``,
    '',
    c.verdict_line,
    '',
    '| metric | run | baseline | change | test |',
    '| --- | ---: | ---: | ---: | --- |',
    `| SR | ${num(c.SR.run, 3)} | ${num(c.SR.baseline, 3)} | ${num(c.SR.delta, 3)} | ${c.SR.wins} wins / ${c.SR.losses} losses / ${c.SR.ties} ties, exact McNemar p = ${c.SR.mcnemar_p.toPrecision(3)} |`,
    `| PA | ${num(c.PA.run, 3)} | ${num(c.PA.baseline, 3)} | ${num(c.PA.delta, 3)} | 95 % paired bootstrap ${c.PA.ci95 === null ? '—' : `[${num(c.PA.ci95[0], 3)}, ${num(c.PA.ci95[1], 3)}]`} |`,
    `| SCD | ${num(c.SCD.run, 4)} | ${num(c.SCD.baseline, 4)} | ${num(c.SCD.delta, 4)} | 95 % paired bootstrap ${c.SCD.ci95 === null ? '—' : `[${num(c.SCD.ci95[0], 4)}, ${num(c.SCD.ci95[1], 4)}]`} over ${c.SCD.paired} samples scored in both |`,
  ]
  if (changed.length > 0) {
    lines.push('', '| sample | SR | PA change |', '| --- | --- | ---: |')
    for (const s of changed) lines.push(`| ${s.key} | ${s.baseline.SR} → ${s.run.SR} (${s.outcome}) | ${num(s.delta.PA, 3)} |`)
  }
  return `${lines.join('\n')}\n`
}
