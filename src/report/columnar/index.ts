// Public entry of the columnar outputs: Arrow IPC files of official rows and score curves, and their writers.
export { metricsArrow, stepsArrow, type StepsTableRow } from './arrow-tables.ts'
export { readMetricsRows, writeCurves, writeMetricsArrow } from './write-columnar.ts'
