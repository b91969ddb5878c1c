// Converts frames.bin (little-endian float64, rows × stateSize) to and from rows; no frames.jsonl logic.
import { EpisodeError } from './errors.ts'

const FLOAT64_BYTES = 8

export interface FramesBinContext {
  source: string
  /** Describes row `i` for messages, e.g. `state index 3`. */
  describeRow: (row: number) => string
}

/**
 * Splits frames.bin into `rows` copies of `stateSize` values. Throws `EPISODE_FRAMES_LENGTH` unless the byte
 * length is exactly rows × stateSize × 8, and `EPISODE_NONFINITE_STATE` on the first NaN or infinity.
 */
export function decodeFramesBin(bytes: Uint8Array, rows: number, stateSize: number, context: FramesBinContext): Float64Array[] {
  const expected = rows * stateSize * FLOAT64_BYTES
  if (bytes.byteLength !== expected) {
    throw new EpisodeError(
      'EPISODE_FRAMES_LENGTH',
      `has ${bytes.byteLength} bytes but frames.jsonl has ${rows} rows of stateSize ${stateSize} float64 values (${expected} bytes). `
      + 'frames.bin and frames.jsonl must come from the same export; re-export the episode.',
      { source: context.source, member: 'frames.bin' },
    )
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out: Float64Array[] = []
  for (let row = 0; row < rows; row++) {
    const values = new Float64Array(stateSize)
    const base = row * stateSize
    for (let k = 0; k < stateSize; k++) values[k] = view.getFloat64((base + k) * FLOAT64_BYTES, true)
    assertFiniteRow(values, row, { source: context.source, member: 'frames.bin', what: context.describeRow(row) })
    out.push(values)
  }
  return out
}

/** Concatenates rows as little-endian float64 (byte order fixed whatever the host). */
export function encodeFramesBin(rows: readonly Float64Array[], stateSize: number): Uint8Array {
  const bytes = new Uint8Array(rows.length * stateSize * FLOAT64_BYTES)
  const view = new DataView(bytes.buffer)
  for (let row = 0; row < rows.length; row++) {
    const values = rows[row]
    if (values === undefined) continue
    const base = row * stateSize
    for (let k = 0; k < stateSize; k++) view.setFloat64((base + k) * FLOAT64_BYTES, values[k] ?? 0, true)
  }
  return bytes
}

/** Throws `EPISODE_NONFINITE_STATE` naming the row and offset of the first non-finite value. */
export function assertFiniteRow(values: Float64Array, row: number, where: { source: string, member: string, what: string }): void {
  for (let k = 0; k < values.length; k++) {
    const value = values[k] ?? Number.NaN
    if (!Number.isFinite(value)) {
      throw new EpisodeError(
        'EPISODE_NONFINITE_STATE',
        `row ${row} (${where.what}) holds ${value} at offset ${k}; every integration value must be finite. Discard the corrupted state or re-export the episode.`,
        { source: where.source, member: where.member },
      )
    }
  }
}
