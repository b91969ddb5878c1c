// Types of timed-step.mjs (a plain script, run by Node without a build step).
import type { SpawnOptions } from 'node:child_process'

export interface TimedStepOptions {
  spawnOptions?: SpawnOptions
  /** A file descriptor for the step's stdout and stderr (default: inherited). */
  log?: number
  /** Stops the step (SIGTERM, then SIGKILL of it and its descendants) when it fires. */
  stop: AbortSignal
  /** How long a stopped step has after SIGTERM before it and its descendants are killed (default 15 s). */
  graceMs?: number
}

export declare function runTimedStep(command: string, args: readonly string[], options: TimedStepOptions): Promise<{ passed: boolean; stopped: boolean }>
export declare function descendantsOf(pid: number | undefined): number[]
