// Complete official metrics rows for tests that care about a few fields only (block, sample, SR, PA, SCD).
import { errorFields, type MetricsRow } from '../../src/evaluate/index.ts'

const BASE = { run: null, duration_seconds: null, usage: null, cost_usd: null, tool_calls: null, attempt_finished: true }
const IDENTITY = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]

/** A scored row with every §9.2 field; the score fields given win. */
export function scoredRow(row: { block: string; sample_id: string; SR: number; PA: number; SCD: number }): Extract<MetricsRow, { status: 'scored' }> {
  return {
    ...BASE, ...row, status: 'scored',
    protocol_version: 'assembly-evaluation-v1', episode_sha256: '0'.repeat(64), state_index: 0, parts: [],
    alignment: { rotation: IDENTITY, translation: [0, 0, 0], chamfer: 0, seed: 'pca-00', best_iteration: 0, iterations: 1, converged: true },
    scale_divisor: 1,
  }
}

/** An error row (SCD null, PA 0, SR 0) with every §9.2 field. */
export function errorRow(row: { block: string; sample_id: string; error?: string }): Extract<MetricsRow, { status: 'error' }> {
  return { ...BASE, block: row.block, sample_id: row.sample_id, ...errorFields(new Error(row.error ?? 'unscorable')) }
}
