// Public entry of run reporting: gate checks and summary rendering (pure), the columnar files, the HTML report,
// paired comparison with a baseline; writers live with their callers or in their subfolders.
export { checkGates, formatGateTable, formatGateVerdict } from './gates.ts'
export { BaselineGateSchema, GateSchema, GatesSchema, type BaselineGate, type Gate, type GateResult, type Gates } from './gate-schemas.ts'
export { formatSummaryMarkdown, formatSummaryTable } from './format-summary.ts'
export { writeReportFiles, type ReportFiles } from './write-report.ts'
export { ReportError, REPORT_ERROR_CODES, type ReportErrorCode } from './errors.ts'
export { compareWithBaseline, writeRunOutputs, type BaselineSection, type RunOutputSettings } from './run-outputs.ts'
