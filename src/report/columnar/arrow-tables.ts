// Builds Arrow IPC files (apache-arrow) of the official rows and of score curves; pure: rows in, bytes out.
// Column names keep the JSON field names; nested JSON becomes Arrow lists/structs, never JSON text, except
// `usage`, whose keys differ per provider (kept as `usage_json`).
// apache-arrow is imported when a file is built, not when this module loads: the plugin and the reporter load this
// folder on every run, most runs write no Arrow file before their end, and Arrow alone takes ~90 ms to load.
import type { DataType } from 'apache-arrow'
import type { CurveStep } from '../../evaluate/curves/index.ts'
import type { MetricsRow, ScoredRow } from '../../evaluate/index.ts'

/** One row of `steps.arrow`: a curve step (src/evaluate/curves) with the sample it belongs to. */
export type StepsTableRow = { block: string; sample_id: string } & CurveStep

type Arrow = typeof import('apache-arrow')

/** The Arrow module and the nested column types, built once on first use. */
let _arrow: Promise<{ arrow: Arrow; listOf: (type: DataType) => DataType; PART_TYPE: DataType; CANDIDATE_TYPE: DataType }> | undefined

function loadArrow(): NonNullable<typeof _arrow> {
  _arrow ??= import('apache-arrow').then(arrow => {
    const { Bool, Field, Float64, Int32, List, Struct, Utf8 } = arrow
    const listOf = (type: DataType) => new List(new Field('item', type, true))
    const PART_TYPE = new Struct([
      new Field('part_id', new Utf8(), false),
      new Field('target_part_id', new Utf8(), false),
      new Field('chamfer', new Float64(), false),
      new Field('correct', new Bool(), false),
    ])
    const CANDIDATE_TYPE = new Struct([
      new Field('seed', new Utf8(), false),
      new Field('chamfer', new Float64(), false),
      new Field('iterations', new Int32(), false),
      new Field('converged', new Bool(), false),
      new Field('rotation', listOf(new Float64()), true),
      new Field('translation', listOf(new Float64()), true),
    ])
    return { arrow, listOf, PART_TYPE, CANDIDATE_TYPE }
  })
  return _arrow
}

/** Row-major 3×3 rows flattened to 9 numbers (`rotation[3 * i + j]` = row i, column j). */
function flatRotation(rotation: readonly (readonly number[])[] | undefined): number[] | null {
  return rotation === undefined ? null : rotation.flat()
}

/**
 * `metrics.arrow`: one row per official row, same order. Columns: the base and score fields by name,
 * `parts` (list of structs), `alignment_*` (the alignment record flattened; `alignment_rotation` is the
 * row-major 3×3 as 9 numbers), `alignment_candidates` (list of structs), `usage_json`.
 */
export async function metricsArrow(rows: readonly MetricsRow[]): Promise<Uint8Array> {
  const { arrow: { Bool, Float64, Int32, Table, Utf8, tableToIPC, vectorFromArray }, listOf, PART_TYPE, CANDIDATE_TYPE } = await loadArrow()
  // `s` is the row when scored (score fields present), undefined for an error row.
  const column = <T>(pick: (row: MetricsRow, s: ScoredRow | undefined) => T, type: DataType) => vectorFromArray(rows.map(row => pick(row, row.status === 'scored' ? row : undefined)), type)
  const table = new Table({
    block: column(r => r.block, new Utf8()),
    sample_id: column(r => r.sample_id, new Utf8()),
    run: column(r => r.run, new Utf8()),
    status: column(r => r.status, new Utf8()),
    error: column(r => (r.status === 'error' ? r.error : null), new Utf8()),
    SCD: column(r => r.SCD, new Float64()),
    PA: column(r => r.PA, new Float64()),
    SR: column(r => r.SR, new Float64()),
    parts_correct: column((_, s) => (s === undefined ? null : s.parts.filter(p => p.correct).length), new Int32()),
    parts_total: column((_, s) => s?.parts.length ?? null, new Int32()),
    duration_seconds: column(r => r.duration_seconds, new Float64()),
    cost_usd: column(r => r.cost_usd, new Float64()),
    tool_calls: column(r => r.tool_calls, new Int32()),
    attempt_finished: column(r => r.attempt_finished, new Bool()),
    usage_json: column(r => (r.usage === null ? null : JSON.stringify(r.usage)), new Utf8()),
    protocol_version: column((_, s) => s?.protocol_version ?? null, new Utf8()),
    input_protocol: column((_, s) => s?.input_protocol ?? null, new Utf8()),
    episode_sha256: column((_, s) => s?.episode_sha256 ?? null, new Utf8()),
    state_index: column((_, s) => s?.state_index ?? null, new Int32()),
    scale_divisor: column((_, s) => s?.scale_divisor ?? null, new Float64()),
    parts: column((_, s) => s?.parts.map(p => ({ part_id: p.part_id, target_part_id: p.target_part_id, chamfer: p.chamfer, correct: p.correct })) ?? null, listOf(PART_TYPE)),
    alignment_rotation: column((_, s) => flatRotation(s?.alignment.rotation), listOf(new Float64())),
    alignment_translation: column((_, s) => s?.alignment.translation ?? null, listOf(new Float64())),
    alignment_chamfer: column((_, s) => s?.alignment.chamfer ?? null, new Float64()),
    alignment_seed: column((_, s) => s?.alignment.seed ?? null, new Utf8()),
    alignment_best_iteration: column((_, s) => s?.alignment.best_iteration ?? null, new Int32()),
    alignment_iterations: column((_, s) => s?.alignment.iterations ?? null, new Int32()),
    alignment_converged: column((_, s) => s?.alignment.converged ?? null, new Bool()),
    alignment_candidates: column((_, s) => s?.alignment.candidates?.map(c => ({
      seed: c.seed, chamfer: c.chamfer, iterations: c.iterations, converged: c.converged,
      rotation: flatRotation(c.rotation), translation: c.translation ?? null,
    })) ?? null, listOf(CANDIDATE_TYPE)),
  })
  return tableToIPC(table, 'file')
}

/** `steps.arrow`: one row per curve step of every sample, in sample then call order. */
export async function stepsArrow(steps: readonly StepsTableRow[]): Promise<Uint8Array> {
  const { arrow: { Float64, Int32, Table, Utf8, tableToIPC, vectorFromArray } } = await loadArrow()
  const column = <T>(pick: (row: StepsTableRow) => T, type: DataType) => vectorFromArray(steps.map(pick), type)
  const table = new Table({
    block: column(s => s.block, new Utf8()),
    sample_id: column(s => s.sample_id, new Utf8()),
    call_index: column(s => s.call_index, new Int32()),
    tool: column(s => s.tool, new Utf8()),
    call_status: column(s => s.call_status, new Utf8()),
    elapsed_seconds: column(s => s.elapsed_seconds, new Float64()),
    state_index: column(s => s.state_index, new Int32()),
    status: column(s => s.status, new Utf8()),
    error: column(s => s.error, new Utf8()),
    SCD: column(s => s.SCD, new Float64()),
    PA: column(s => s.PA, new Float64()),
    SR: column(s => s.SR, new Float64()),
    parts_correct: column(s => s.parts_correct, new Int32()),
    parts_total: column(s => s.parts_total, new Int32()),
  })
  return tableToIPC(table, 'file')
}
