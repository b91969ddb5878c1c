// Public entry of run reporting: gate checks and summary rendering (pure); writers live with their callers.
export { checkGates, type Gate, type GateResult, type Gates } from './gates.ts'
export { formatSummaryMarkdown, formatSummaryTable } from './format-summary.ts'
export { writeReportFiles, type ReportFiles } from './write-report.ts'
