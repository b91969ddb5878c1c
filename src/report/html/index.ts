// Public entry of the HTML run report: building it (Node) and the data it embeds.
export { buildReport, type BuildReportOptions, type BuiltReport } from './build-report.ts'
export { bundleReportApp } from './bundle-app.ts'
export type { ReportData, ReportRecords, ReportSample } from './report-types.ts'
export type { ViewerScene } from './scene-data.ts'
