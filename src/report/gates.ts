// Checks aggregate gates (minimum SR/PA, maximum SCD per block, source, overall) against a summary; no I/O.
import type { MetricTriple, Summary } from '../scoring/index.ts'
import type { Gate, GateResult, Gates } from './gate-schemas.ts'

// Older importers inside src/report (run-outputs.ts, format-summary.ts) take the types from here; the definitions are
// in gate-schemas.ts, which paired/ shares without importing this module.
export type { Gate, GateResult, Gates } from './gate-schemas.ts'

const METRICS = ['SR', 'PA', 'SCD'] as const

/**
 * Every configured gate with its outcome. A gate whose value the run did not measure (a block that did not
 * run, sources and overall of a partial run — e.g. one shard) is `not-measured`, never silently passed.
 */
export function checkGates(summary: Summary, gates: Gates, blockOrder: readonly string[], sourceOrder: readonly string[]): GateResult[] {
  const results: GateResult[] = []
  for (const block of expand(gates.blocks, blockOrder)) {
    results.push(...checkOne(`block ${block.name}`, block.gate, summary.blocks[block.name]))
  }
  for (const source of expand(gates.sources, sourceOrder)) {
    results.push(...checkOne(`source ${source.name}`, source.gate, summary.sources?.[source.name]))
  }
  if (gates.overall !== undefined) results.push(...checkOne('overall', gates.overall, summary.official_overall ?? undefined))
  return results
}

function expand(gates: Record<string, Gate> | undefined, order: readonly string[]): { name: string; gate: Gate }[] {
  if (gates === undefined) return []
  const names = [...order, ...Object.keys(gates).filter(name => name !== '*' && !order.includes(name))]
  return names.flatMap((name) => {
    const gate = { ...gates['*'], ...gates[name] }
    return Object.keys(gate).length === 0 ? [] : [{ name, gate }]
  })
}

function checkOne(label: string, gate: Gate, measured: MetricTriple | undefined): GateResult[] {
  return METRICS.flatMap((metric): GateResult[] => {
    const limit = gate[metric]
    if (limit === undefined) return []
    const value = measured?.[metric] ?? null
    const gateText = `${label} ${metric} ${metric === 'SCD' ? '≤' : '≥'} ${limit}`
    if (value === null) return [{ gate: gateText, measured: null, status: 'not-measured' }]
    const ok = metric === 'SCD' ? value <= limit : value >= limit
    return [{ gate: gateText, measured: value, status: ok ? 'passed' : 'failed' }]
  })
}

const STATUS_TEXT = { passed: 'passed', failed: 'FAILED', 'not-measured': 'not measured' } as const satisfies Record<GateResult['status'], string>

/**
 * The gate table: one aligned row per gate (gate, measured value, status) under a header; no lines without gates.
 * Measured values print in full (they are compared exactly).
 */
export function formatGateTable(results: readonly GateResult[]): string[] {
  if (results.length === 0) return []
  const rows = results.map(result => [result.gate, result.measured === null ? '-' : String(result.measured), STATUS_TEXT[result.status]] as const)
  const header = ['gate', 'measured', 'status'] as const
  const widths = [0, 1].map(column => Math.max(header[column]!.length, ...rows.map(row => row[column]!.length)))
  const line = (cells: readonly [string, string, string]) => `  ${cells[0].padEnd(widths[0]!)}  ${cells[1].padEnd(widths[1]!)}  ${cells[2]}`
  return [line(header), ...rows.map(line)]
}

/** One line: `awb gates passed: …` or `awb gates FAILED: …`, naming every failed gate with its measured value. */
export function formatGateVerdict(results: readonly GateResult[]): string {
  const failed = results.filter(result => result.status === 'failed')
  const unmeasured = results.filter(result => result.status === 'not-measured').length
  const notMeasured = unmeasured === 0 ? '' : ` (${unmeasured} not measured)`
  if (failed.length === 0) return `awb gates passed: ${results.length - unmeasured} of ${results.length} met${notMeasured}`
  return `awb gates FAILED: ${failed.length} of ${results.length} missed${notMeasured}: ${failed.map(gate => `${gate.gate} (measured ${gate.measured})`).join('; ')}; the run fails (exit code 1)`
}
