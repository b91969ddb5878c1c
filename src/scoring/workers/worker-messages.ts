// Message shapes between the scoring pool and its worker threads; no behaviour.
import type { StartResult } from '../icp.ts'
import type { IcpKernel } from '../objective.ts'
import type { AlignmentStart } from '../starts.ts'
import type { CellChunk, SharedCells } from './cell-chunks.ts'

/**
 * Main → worker, phase 1 of a `cells` sample: build the cells of chunks of points claimed from a shared counter
 * (chunk c < chunksPerCloud is prediction chunk c, the rest are target chunks), reply with them.
 */
export interface CellsJob {
  kind: 'cells'
  id: number
  prediction: Float64Array
  target: Float64Array
  /** Points per chunk. */
  chunk: number
  /** Int32Array(1) over a SharedArrayBuffer: the next chunk to claim (Atomics.add). */
  counter: Int32Array
  /** Build the prediction's chunks only: the pool still holds the target's cells (an unchanged ground truth). */
  predictionOnly?: boolean
}

/** Main → worker: run starts of one sample, taking the next claim (a group of start indices) from a shared counter until none is left. */
export interface StartsJob {
  kind: 'starts'
  id: number
  prediction: Float64Array
  target: Float64Array
  starts: AlignmentStart[]
  kernel: IcpKernel
  /** The `cells` kernel's cells [prediction, target], laid out once in SharedArrayBuffers by phase 1. */
  cells?: [SharedCells, SharedCells]
  /**
   * Start indices in claims, each run by one worker in order: starts that begin at nearly the same transform go
   * together, so the later ones can reuse the first one's trajectory (IcpContext.runStart). Every index once.
   */
  claims: number[][]
  /** Int32Array(1) over a SharedArrayBuffer: the next claim to take (Atomics.add). */
  counter: Int32Array
}

export type WorkerJob = CellsJob | StartsJob

/** Worker → main: the chunks or starts this worker did, or a failure message. */
export type WorkerReply =
  | { id: number; kind: 'cells'; chunks: CellChunk[] }
  | { id: number; kind: 'starts'; results: { index: number; result: StartResult }[] }
  | { id: number; error: string }
