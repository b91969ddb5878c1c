// The one definition of the official metrics row: every producer's row parses; a malformed one says what is wrong.
import { describe, expect, it } from 'vitest'
import { errorFields, EvaluateError, MetricsRowSchema, parseMetricsRow, type MetricsRow } from '../../../src/evaluate/index.ts'

const base = { block: 'ikea-manualbook', sample_id: 'sample-00', run: '/runs/r1', duration_seconds: 12.5, usage: null, cost_usd: null, tool_calls: 3, attempt_finished: true }
const scored: MetricsRow = {
  ...base,
  status: 'scored', SCD: 0.001, PA: 0.5, SR: 0,
  protocol_version: 'assembly-evaluation-v1', episode_sha256: 'a'.repeat(64), state_index: 4,
  parts: [{ part_id: 'part-0001', target_part_id: 'part-0002', chamfer: 0.002, correct: true }],
  alignment: { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0], chamfer: 0.001, seed: 'pca-00', best_iteration: 2, iterations: 5, converged: true },
  scale_divisor: 1,
}

describe('MetricsRowSchema', () => {
  it('accepts a scored row and an error row built by errorFields, keeping fields other producers add', () => {
    expect(MetricsRowSchema.parse({ ...scored, backend: 'cpu-cells' })).toMatchObject({ status: 'scored', backend: 'cpu-cells' })
    expect(MetricsRowSchema.parse({ ...base, ...errorFields(new Error('no export')) })).toMatchObject({ status: 'error', error: 'Error: no export', SCD: null, PA: 0, SR: 0 })
  })

  it('refuses an error row that claims a score, and a scored row without its score fields', () => {
    expect(MetricsRowSchema.safeParse({ ...base, ...errorFields(new Error('x')), PA: 1 }).success).toBe(false)
    const { alignment: _alignment, ...noAlignment } = scored
    expect(MetricsRowSchema.safeParse(noAlignment).success).toBe(false)
  })
})

describe('parseMetricsRow', () => {
  it('names the source, the file and every wrong field of a malformed row', () => {
    let caught: unknown
    try {
      parseMetricsRow({ ...scored, PA: 'high', parts: [{ part_id: 'part-0001' }] }, { file: '/runs/r1/result.json', what: 'result.json `metrics`' })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(EvaluateError)
    const error = caught as EvaluateError
    expect(error.code).toBe('EVALUATE_ROW_INVALID')
    expect(error.file).toBe('/runs/r1/result.json')
    expect(error.message).toContain('result.json `metrics` is not an official metrics row')
    expect(error.message).toMatch(/PA: .*expected number/)
    expect(error.message).toContain('parts.0.target_part_id')
  })

  it('names an unknown status', () => {
    expect(() => parseMetricsRow({ ...base, status: 'done', SCD: null, PA: 0, SR: 0 }, { what: 'row 3' })).toThrow(/row 3 is not an official metrics row .*status/)
  })
})
