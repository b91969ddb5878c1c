// The gate table and verdict a run prints at its end (pure formatting of checkGates' results).
import { describe, expect, it } from 'vitest'
import { formatGateTable, formatGateVerdict, type GateResult } from '../../../src/report/index.ts'

const RESULTS: GateResult[] = [
  { gate: 'overall SR ≥ 0.9', measured: 0.875, status: 'failed' },
  { gate: 'block partnet-none PA ≥ 1', measured: 1, status: 'passed' },
  { gate: 'source ikea SCD ≤ 0.01', measured: null, status: 'not-measured' },
]

describe('formatGateTable', () => {
  it('aligns one row per gate under a header, the measured value in full', () => {
    expect(formatGateTable(RESULTS)).toEqual([
      '  gate                       measured  status',
      '  overall SR ≥ 0.9           0.875     FAILED',
      '  block partnet-none PA ≥ 1  1         passed',
      '  source ikea SCD ≤ 0.01     -         not measured',
    ])
  })

  it('prints nothing without gates', () => {
    expect(formatGateTable([])).toEqual([])
  })
})

describe('formatGateVerdict', () => {
  it('names every failed gate with its measured value', () => {
    expect(formatGateVerdict([...RESULTS, { gate: 'overall PA ≥ 0.99', measured: 0.9, status: 'failed' }])).toBe(
      'awb gates FAILED: 2 of 4 missed (1 not measured): overall SR ≥ 0.9 (measured 0.875); overall PA ≥ 0.99 (measured 0.9); the run fails (exit code 1)',
    )
  })

  it('says how many gates were met when none failed', () => {
    expect(formatGateVerdict(RESULTS.slice(1))).toBe('awb gates passed: 1 of 2 met (1 not measured)')
  })
})
