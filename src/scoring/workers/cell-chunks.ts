// The cells of a sample built in chunks by several threads, and their one shared layout (CSR over SharedArrayBuffers).
// Each point's cell depends only on its cloud and its index, so any split over threads gives the same cells.
import { cellsFromArrays, type CellRange, type CellRangeBuilder, type VoronoiCells } from '../cells.ts'
import { ScoringError } from '../errors.ts'
import type { KdTree } from '../kd-tree.ts'

/** Points per claimed chunk: small enough to balance two to eight threads, large enough to keep messages few. */
export const CELL_CHUNK_POINTS = 64

/** The built cells of points [lo, lo + counts.length) of one cloud (0 = prediction, 1 = target). */
export interface CellChunk extends CellRange {
  cloud: 0 | 1
  lo: number
}

/** A cloud's cells as CSR arrays over SharedArrayBuffers: S_j = nbr[start[j] .. start[j + 1]). */
export interface SharedCells {
  start: Int32Array
  nbr: Int32Array
  noCell: Uint8Array
}

/** Builds the chunk of points [lo, hi) of `cloud` with `builder` (over that cloud's tree). */
export function buildCellChunk(builder: CellRangeBuilder, cloud: 0 | 1, lo: number, hi: number): CellChunk {
  return { cloud, lo, ...builder.buildRange(lo, hi) }
}

/** Lays out the chunks (any order) of one cloud of `size` points; throws when they do not tile it exactly. */
export function layoutCellChunks(size: number, chunks: readonly CellChunk[]): SharedCells {
  const sorted = [...chunks].sort((a, b) => a.lo - b.lo)
  const start = new Int32Array(new SharedArrayBuffer(4 * (size + 1)))
  const noCell = new Uint8Array(new SharedArrayBuffer(Math.max(1, size)))
  let total = 0
  let covered = 0
  for (const chunk of sorted) {
    if (chunk.lo !== covered) throw new ScoringError('SCORING_WORKER_FAILED', `cell chunks do not tile the cloud: one starts at point ${chunk.lo}, expected ${covered}`)
    for (let k = 0; k < chunk.counts.length; k++) {
      start[chunk.lo + k] = total
      const count = chunk.counts[k]!
      if (count < 0) noCell[chunk.lo + k] = 1
      else total += count
    }
    covered += chunk.counts.length
  }
  if (covered !== size) throw new ScoringError('SCORING_WORKER_FAILED', `cell chunks cover ${covered} of ${size} points`)
  start[size] = total
  const nbr = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, total)))
  for (const chunk of sorted) nbr.set(chunk.nbr, start[chunk.lo]!)
  return { start, nbr, noCell: noCell.subarray(0, size) }
}

/** The VoronoiCells of `tree` over shared CSR arrays (no copy of the lists). */
export function sharedToCells(tree: KdTree, shared: SharedCells): VoronoiCells {
  return cellsFromArrays(tree, shared.start, shared.nbr.subarray(0, shared.start[tree.size]!), shared.noCell)
}
