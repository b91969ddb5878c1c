// Message shapes between the scoring pool and its worker threads; no behaviour.
import type { StartResult } from '../icp.ts'
import type { AlignmentStart } from '../starts.ts'

/** Main → worker: run starts of one sample, taking the next start index from a shared counter until none is left. */
export interface StartsJob {
  id: number
  prediction: Float64Array
  target: Float64Array
  starts: AlignmentStart[]
  /** Int32Array(1) over a SharedArrayBuffer: the next start index to claim (Atomics.add). */
  counter: Int32Array
}

/** Worker → main: the starts this worker ran, by index, or a failure message. */
export type StartsReply =
  | { id: number; results: { index: number; result: StartResult }[] }
  | { id: number; error: string }
