// Validates a whole in-memory episode against the schema and every semantic rule; no ZIP or hash-inventory work.
import { logicalEpisodeValidator } from './episode-schema.ts'
import { DEFAULT_EPISODE_SOURCE, EpisodeError } from './errors.ts'
import { assertFiniteRow } from './frames-bin.ts'
import { validateObservations, validateWorld } from './validate-assets.ts'
import { validateCalls } from './validate-calls.ts'
import { validateFrames } from './validate-frames.ts'
import { validateManifestRules } from './validate-manifest.ts'
import type { Episode, Frame } from './episode.ts'
import type { LogicalEpisode } from './episode-schema.ts'
import type { SchemaIssue } from './json-schema-validator.ts'

export interface ValidateEpisodeOptions {
  /** Label of the archive in messages (a path or any name); default `<episode>`. */
  source?: string
}

/**
 * Throws an `EpisodeError` unless `episode` satisfies the episode JSON Schema and every rule of
 * environment.md §2.16 that does not concern the ZIP container (manifest.hashes is not checked: writers
 * recompute it).
 */
export async function validateEpisode(episode: Episode, options: ValidateEpisodeOptions = {}): Promise<void> {
  const source = options.source ?? DEFAULT_EPISODE_SOURCE
  // A NaN must be reported as such, not as a schema type error.
  allFrames(episode).forEach(([frame, label], row) => assertFiniteRow(frame.integration, row, { source, member: `frames.jsonl ${label}`, what: label }))
  parseLogicalEpisode(toLogicalEpisode(episode), source)
  await validateEpisodeRules(episode, source)
}

/** Schema-checks a logical episode and returns it typed; throws `EPISODE_SCHEMA` naming the member and field. */
export function parseLogicalEpisode(value: unknown, source: string): LogicalEpisode {
  const check = logicalEpisodeValidator.check(value)
  if (check.ok) return check.value
  const issue: SchemaIssue = check.issues[0] ?? { path: '', message: 'is invalid' }
  throw new EpisodeError(
    'EPISODE_SCHEMA',
    `fails the episode schema at "${issue.path}": ${issue.message}. Fix the field or re-export the episode with a conforming writer.`,
    { source, member: memberOfSchemaPath(issue.path) },
  )
}

/** The semantic rules, in a fixed order so the first broken rule is always the one reported. */
export async function validateEpisodeRules(episode: Episode, source: string): Promise<void> {
  validateManifestRules(episode.manifest, source)
  if (episode.manifest.lifecycle === 'setup') {
    const history = { calls: episode.calls.length, states: episode.states.length, trace: episode.trajectory.length, events: episode.events.length }
    if (Object.values(history).some(count => count > 0)) {
      throw new EpisodeError(
        'EPISODE_LIFECYCLE',
        `a setup episode must carry no history but has ${history.calls} calls, ${history.states} states, ${history.trace} trace frames and ${history.events} events. Set lifecycle "active" for a recorded run, or export the current state as a new initial episode.`,
        { source, member: 'manifest.json lifecycle' },
      )
    }
  }
  validateFrames(episode, source)
  await validateObservations(episode.observations, source)
  validateCalls(episode, source)
  validateWorld(episode.world, episode.manifest, source)
}

/** The logical form of an episode: frames with `integration` as plain number arrays, no side maps. */
export function toLogicalEpisode(episode: Episode): LogicalEpisode {
  return {
    manifest: episode.manifest,
    initial: { ...episode.initial, integration: Array.from(episode.initial.integration) },
    states: episode.states.map(state => ({ ...state, integration: Array.from(state.integration) })),
    calls: episode.calls,
    events: episode.events,
    trajectory: episode.trajectory.map(frame => ({ ...frame, integration: Array.from(frame.integration) })),
    revision: episode.revision,
  }
}

function allFrames(episode: Episode): Array<[Frame, string]> {
  return [
    [episode.initial, 'initial'],
    ...episode.states.map((state, k): [Frame, string] => [state, `states[${k}]`]),
    ...episode.trajectory.map((frame, k): [Frame, string] => [frame, `trajectory[${k}]`]),
  ]
}

// Logical-episode paths map back to the archive member the field is stored in.
function memberOfSchemaPath(path: string): string {
  const [, top = '', ...rest] = path.split('/')
  const field = rest.join('/')
  const member = top === 'manifest' ? 'manifest.json'
    : top === 'calls' ? 'calls.jsonl'
      : top === 'events' ? 'events.jsonl'
        : top === 'initial' || top === 'states' || top === 'trajectory' ? 'frames.jsonl'
          : 'episode'
  const inFrames = member === 'frames.jsonl' ? `${top}/` : ''
  return field === '' && inFrames === '' ? member : `${member} /${inFrames}${field}`
}
