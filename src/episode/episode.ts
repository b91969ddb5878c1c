// The in-memory Episode type, built from the logical schema types; no parsing or validation here.
import type { LogicalEpisode } from './episode-schema.ts'
import type { LogicalFrame, LogicalTraceFrame } from './frame-schema.ts'
import type { Call } from './call-schema.ts'

/** A committed frame; `integration` holds exactly `manifest.stateSize` float64 values. */
export type Frame = Omit<LogicalFrame, 'integration'> & { integration: Float64Array }

/** A trace frame: a frame recorded inside one call's trace range. */
export type TraceFrame = Omit<LogicalTraceFrame, 'integration'> & { integration: Float64Array }

/**
 * A decoded (or to-be-encoded) episode: the logical episode with float64 state rows, plus its side maps.
 * `world` is keyed by full member path (`world/model.xml`) and holds the bytes untouched;
 * `observations` is keyed by file name (`<sha256>.png`, as referenced by stored results).
 */
export type Episode = Omit<LogicalEpisode, 'initial' | 'states' | 'trajectory' | 'calls'> & {
  initial: Frame
  /** Committed states; `states[k].index === k + 1`. */
  states: Frame[]
  /** Trace frames; `trajectory[k].index === k`. */
  trajectory: TraceFrame[]
  calls: Call[]
  world: Map<string, Uint8Array>
  observations: Map<string, Uint8Array>
}

/** The committed state with the highest index, else the initial frame (scoring.md §3.3). */
export function latestFrame(episode: Pick<Episode, 'initial' | 'states'>): Frame {
  let latest = episode.initial
  for (const state of episode.states) if (state.index > latest.index) latest = state
  return latest
}
