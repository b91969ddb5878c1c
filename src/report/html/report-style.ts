// The report page's stylesheet (inlined, so the page is one file plus its images); no logic.
export const REPORT_STYLE = `
:root { color-scheme: light dark; --bad: #d1242f; --ok: #1a7f37; --muted: #6e7781; font-family: system-ui, sans-serif; }
body { margin: 0 auto; max-width: 1200px; padding: 0 16px 48px; line-height: 1.4; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid #8884; text-align: right; }
th:first-child, td:first-child, #awb-samples td:nth-child(2), .timeline td:nth-child(3) { text-align: left; }
#awb-samples th[data-sort] { cursor: pointer; user-select: none; }
#awb-samples tbody tr { cursor: pointer; }
tr.selected { background: #58a6ff33; }
tr.error td:first-child, .bad { color: var(--bad); }
tr.untrusted td:nth-child(-n+2) { color: var(--bad); text-decoration: line-through; }
tr.aggregate td { font-weight: 600; }
.muted { color: var(--muted); }
#awb-comparison td:last-child, #awb-comparison th:last-child { text-align: left; }
.verdict { font-weight: 600; } .verdict.worse { color: var(--bad); } .verdict.better { color: var(--ok); }
.viewer .frame { width: 100%; aspect-ratio: 16 / 10; max-height: 75vh; }
.viewer canvas { width: 100%; height: 100%; display: block; border-radius: 6px; }
.controls { display: flex; gap: 8px; align-items: center; margin: 6px 0; flex-wrap: wrap; }
.awb-slider { width: 240px; }
.curve .pa { fill: none; stroke: #58a6ff; stroke-width: 2; } .curve .axis, .curve .grid { stroke: #8886; }
.curve .sr1 { fill: #3fb950; } .curve .sr0 { fill: #f85149; } .curve .now { stroke: #d29922; stroke-dasharray: 4 3; }
.curve { display: block; width: 100%; max-width: 900px; height: auto; }
.curve text { font-size: 11px; fill: currentColor; } .curve .axis-label { font-size: 12px; font-weight: 600; }
.capture { max-width: 512px; border-radius: 6px; }
.pages { display: flex; flex-wrap: wrap; gap: 8px; } .pages img { max-width: 280px; border: 1px solid #8884; }
figure { margin: 0; } figcaption { font-size: 12px; color: var(--muted); }
`
