// metrics.arrow and steps.arrow read back with apache-arrow: every value equals the JSON it was written from.
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunCurves } from '../../../src/evaluate/curves/index.ts'
import { readMetricsRows, writeCurves, writeMetricsArrow } from '../../../src/report/columnar/index.ts'

const SCORED = {
  block: 'ikea-manualbook', sample_id: 'Chair/logrelm', run: '/runs/a', duration_seconds: 12.5, usage: { input_tokens: 10, output_tokens: 3 }, cost_usd: 0.25,
  tool_calls: 7, attempt_finished: true, status: 'scored', SCD: 1.5e-29, PA: 1, SR: 1, protocol_version: 'assembly-evaluation-v1', input_protocol: 'assembly-evaluation-v2',
  episode_sha256: 'a'.repeat(64), state_index: 6,
  parts: [{ part_id: 'leg', target_part_id: 'leg', chamfer: 2e-32, correct: true }, { part_id: 'seat', target_part_id: 'seat', chamfer: 0.5, correct: false }],
  alignment: {
    rotation: [[1, 0, 0], [0, 0, -1], [0, 1, 0]], translation: [0.1, -0.2, 0.3], chamfer: 1e-32, seed: 'pca-3', best_iteration: 0, iterations: 1, converged: true,
    candidates: [{ seed: 'pca-0', chamfer: 4e-5, iterations: 20, converged: true, rotation: [[0, 1, 0], [1, 0, 0], [0, 0, -1]], translation: [1, 2, 3] }],
  },
  scale_divisor: 0.75,
}
const ERROR = { block: 'partnet-none', sample_id: '20545', run: null, duration_seconds: null, usage: null, cost_usd: null, tool_calls: null, attempt_finished: false, status: 'error', error: 'EvaluateError: unfinished', SCD: null, PA: 0, SR: 0 }

const STEPS = [
  { call_index: 0, tool: 'get_scene', call_status: 'completed', elapsed_seconds: 0, state_index: 0, status: 'scored', error: null, SCD: 88.4, PA: 0, SR: 0, parts_correct: 0, parts_total: 2 },
  { call_index: 1, tool: 'set_object_pose', call_status: 'error', elapsed_seconds: 0.5, state_index: 0, status: 'error', error: 'ScoringError: x', SCD: null, PA: 0, SR: 0, parts_correct: 0, parts_total: 2 },
  { call_index: 2, tool: 'set_object_pose', call_status: 'completed', elapsed_seconds: 1.25, state_index: 1, status: 'scored', error: null, SCD: 3e-29, PA: 1, SR: 1, parts_correct: 2, parts_total: 2 },
] as const

let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'awb-columnar-'))
  await writeFile(join(dir, 'metrics.jsonl'), `${JSON.stringify(SCORED)}\n${JSON.stringify(ERROR)}\n`)
})

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

/** Arrow rows as plain JSON values (lists become arrays, structs objects). */
async function readArrow(path: string): Promise<Record<string, unknown>[]> {
  const table = tableFromIPC(await readFile(path))
  return table.toArray().map(row => JSON.parse(JSON.stringify(row.toJSON(), (_key, value: unknown) => (ArrayBuffer.isView(value) ? Array.from(value as Float64Array) : value))) as Record<string, unknown>)
}

describe('metrics.arrow', () => {
  it('holds every official field of every row, nested fields included', async () => {
    const rows = await readMetricsRows(dir)
    const path = await writeMetricsArrow(dir, rows!)
    const [scored, error] = await readArrow(path)
    const expectedScored = {
      block: SCORED.block, sample_id: SCORED.sample_id, run: SCORED.run, status: 'scored', error: null, SCD: SCORED.SCD, PA: 1, SR: 1,
      parts_correct: 1, parts_total: 2, duration_seconds: 12.5, cost_usd: 0.25, tool_calls: 7, attempt_finished: true,
      usage_json: JSON.stringify(SCORED.usage), protocol_version: SCORED.protocol_version, input_protocol: SCORED.input_protocol,
      episode_sha256: SCORED.episode_sha256, state_index: 6, scale_divisor: 0.75, parts: SCORED.parts,
      alignment_rotation: SCORED.alignment.rotation.flat(), alignment_translation: SCORED.alignment.translation, alignment_chamfer: 1e-32,
      alignment_seed: 'pca-3', alignment_best_iteration: 0, alignment_iterations: 1, alignment_converged: true,
      alignment_candidates: [{ ...SCORED.alignment.candidates[0], rotation: SCORED.alignment.candidates[0]!.rotation.flat() }],
    }
    expect(scored).toEqual(expectedScored)
    expect(Object.keys(scored!)).toEqual(Object.keys(expectedScored))
    expect(error).toMatchObject({ block: 'partnet-none', run: null, status: 'error', error: ERROR.error, SCD: null, PA: 0, SR: 0, parts: null, alignment_rotation: null, usage_json: null, attempt_finished: false, tool_calls: null })
  })

  it('rejects a metrics.jsonl line that is not an official row, naming the line', async () => {
    const bad = await mkdtemp(join(tmpdir(), 'awb-columnar-bad-'))
    await writeFile(join(bad, 'metrics.jsonl'), `${JSON.stringify(SCORED)}\n${JSON.stringify({ ...ERROR, PA: 'none' })}\n`)
    await expect(readMetricsRows(bad)).rejects.toThrow(/line 2 is not an official metrics row .*PA: /)
    await rm(bad, { recursive: true, force: true })
  })

  it('has no rows without metrics.jsonl, and says why when metrics.jsonl cannot be read (never "no rows")', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'awb-columnar-unreadable-'))
    expect(await readMetricsRows(dir)).toBeUndefined()
    // A link to itself fails with ELOOP even for root, who ignores permission bits.
    const path = join(dir, 'metrics.jsonl')
    await symlink(path, path)
    await expect(readMetricsRows(dir)).rejects.toMatchObject({ code: 'REPORT_INPUT_INVALID', file: path, message: expect.stringContaining('ELOOP') as unknown })
    await rm(dir, { recursive: true, force: true })
  })
})

describe('steps.arrow', () => {
  it('holds one row per step of every sample, equal to curves.json', async () => {
    const curves = {
      run: dir,
      samples: [
        { block: 'fantastic-breaks-none', sample_id: '16/16256', steps: [...STEPS] },
        { block: 'partnet-none', sample_id: '20545', error: 'EvaluateError: no export' },
      ],
      cost: { seconds: 1, steps: 3, states_scored: 2, scoring_seconds: 0.9, workers: 0, backend: 'cpu-cells' },
    } as unknown as RunCurves
    const [json, arrow] = await writeCurves(dir, curves)
    expect(JSON.parse(await readFile(json!, 'utf8'))).toEqual(curves)
    const rows = await readArrow(arrow!)
    expect(rows).toEqual(STEPS.map(step => ({ block: 'fantastic-breaks-none', sample_id: '16/16256', ...step })))
  })
})
