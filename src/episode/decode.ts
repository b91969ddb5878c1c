// Decodes and fully validates a 3dwebagent-episode v1 archive into an Episode; it never writes.
import { createJsonSchemaValidator } from './json-schema-validator.ts'
import { DEFAULT_EPISODE_SOURCE, EpisodeError } from './errors.ts'
import { decodeFramesBin } from './frames-bin.ts'
import { decodeUtf8, parseJson, parseJsonLines } from './jsonl.ts'
import { ManifestSchema } from './manifest-schema.ts'
import { classifyMember, OBSERVATIONS_PREFIX } from './member-names.ts'
import { checkHashInventory, checkMemberSet, readMembers } from './read-members.ts'
import { parseLogicalEpisode, validateEpisodeRules } from './validate-episode.ts'
import type { Episode, Frame, TraceFrame } from './episode.ts'
import type { Manifest } from './manifest-schema.ts'

export interface DecodeEpisodeOptions {
  /** Label of the archive in error messages (a path or any name); default `<episode>`. */
  source?: string
}

type FrameKind = 'initial' | 'state' | 'trace'

interface FrameRow {
  kind: FrameKind
  fields: Record<string, unknown>
}

const manifestValidator = createJsonSchemaValidator(ManifestSchema)

/**
 * Reads an episode archive and checks every rule of environment.md §2.16 (archive, manifest, frames,
 * calls/events, lifecycle) plus scoring.md §3.1. Throws `EpisodeError` on the first broken rule.
 * World bytes are returned untouched; `revision` is 0.
 */
export async function decodeEpisode(bytes: Uint8Array | ArrayBuffer, options: DecodeEpisodeOptions = {}): Promise<Episode> {
  const source = options.source ?? DEFAULT_EPISODE_SOURCE
  const members = await readMembers(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), source)
  checkMemberSet(members, source)
  const manifest = parseManifest(required(members, 'manifest.json'), source)
  await checkHashInventory(members, manifest.hashes, source)

  const rows = parseFrameRows(required(members, 'frames.jsonl'), source)
  const integrations = decodeFramesBin(required(members, 'frames.bin'), rows.length, manifest.stateSize, {
    source,
    describeRow: row => `frames.jsonl row ${row + 1}, kind ${rows[row]?.kind ?? '?'}`,
  })
  const logicalFrames = rows.map((row, i) => ({ ...row.fields, integration: Array.from(integrations[i] ?? []) }))
  const logical = parseLogicalEpisode({
    manifest,
    initial: logicalFrames[0],
    states: logicalFrames.filter((_, i) => rows[i]?.kind === 'state'),
    calls: parseRows(required(members, 'calls.jsonl'), 'calls.jsonl', source),
    events: parseRows(required(members, 'events.jsonl'), 'events.jsonl', source),
    trajectory: logicalFrames.filter((_, i) => rows[i]?.kind === 'trace'),
    revision: 0,
  }, source)

  // Rows come in kind order (checked in parseFrameRows), so the typed frames pair with integrations by position.
  const stateCount = logical.states.length
  const episode: Episode = {
    ...logical,
    initial: withIntegration(logical.initial, integrations[0]),
    states: logical.states.map((state, k): Frame => withIntegration(state, integrations[1 + k])),
    trajectory: logical.trajectory.map((frame, k): TraceFrame => withIntegration(frame, integrations[1 + stateCount + k])),
    calls: logical.calls ?? [],
    world: new Map(),
    observations: new Map(),
  }
  for (const [name, data] of members) {
    const kind = classifyMember(name)
    if (kind === 'world') episode.world.set(name, data)
    else if (kind === 'observation') episode.observations.set(name.slice(OBSERVATIONS_PREFIX.length), data)
  }
  await validateEpisodeRules(episode, source)
  return episode
}

function parseManifest(bytes: Uint8Array, source: string): Manifest {
  const value = parseJson(decodeUtf8(bytes, 'manifest.json', source), 'manifest.json', source)
  const check = manifestValidator.check(value)
  if (check.ok) return check.value
  const issue = check.issues[0] ?? { path: '', message: 'is invalid' }
  throw new EpisodeError(
    'EPISODE_SCHEMA',
    `fails the manifest schema at "${issue.path}": ${issue.message}. Unknown keys are errors and format/version/engine/contract are fixed ("3dwebagent-episode", 1, "3.12.0", "3dwebagent-runtime-1"); fix the manifest or re-export the episode.`,
    { source, member: issue.path === '' ? 'manifest.json' : `manifest.json ${issue.path}` },
  )
}

/** frames.jsonl rows: one `initial` first, then `state` rows, then `trace` rows (§2.1). */
function parseFrameRows(bytes: Uint8Array, source: string): FrameRow[] {
  const member = 'frames.jsonl'
  const order: Record<FrameKind, number> = { initial: 0, state: 1, trace: 2 }
  const rows: FrameRow[] = []
  for (const { line, value } of parseJsonLines(decodeUtf8(bytes, member, source), member, source)) {
    const where = { source, member: `${member}:${line}` }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new EpisodeError('EPISODE_FRAME_ORDER', 'is not a JSON object; every frames.jsonl row is one frame object.', where)
    }
    const entries: Array<[string, unknown]> = Object.entries(value)
    const kind = entries.find(([key]) => key === 'kind')?.[1]
    if (kind !== 'initial' && kind !== 'state' && kind !== 'trace') {
      throw new EpisodeError('EPISODE_FRAME_ORDER', `has kind ${JSON.stringify(kind)}; kind must be "initial", "state" or "trace".`, where)
    }
    if (entries.some(([key]) => key === 'integration')) {
      throw new EpisodeError('EPISODE_SCHEMA', 'carries "integration"; state vectors belong in frames.bin, not frames.jsonl.', where)
    }
    const previous = rows.at(-1)?.kind
    if (previous === undefined ? kind !== 'initial' : kind === 'initial' || order[kind] < order[previous]) {
      throw new EpisodeError(
        'EPISODE_FRAME_ORDER',
        `a "${kind}" row ${previous === undefined ? 'opens the file' : `follows a "${previous}" row`}; frames.jsonl must hold exactly one initial row first, then the state rows, then the trace rows.`,
        where,
      )
    }
    rows.push({ kind, fields: Object.fromEntries(entries.filter(([key]) => key !== 'kind')) })
  }
  if (rows.length === 0) {
    throw new EpisodeError('EPISODE_FRAME_ORDER', 'has no rows; an episode needs its initial frame.', { source, member })
  }
  return rows
}

function parseRows(bytes: Uint8Array, member: string, source: string): unknown[] {
  return parseJsonLines(decodeUtf8(bytes, member, source), member, source).map(row => row.value)
}

function required(members: ReadonlyMap<string, Uint8Array>, name: string): Uint8Array {
  const bytes = members.get(name)
  if (bytes === undefined) throw new EpisodeError('EPISODE_MEMBER_MISSING', 'is required in every episode archive.', { member: name })
  return bytes
}

function withIntegration<F extends { integration: number[] }>(frame: F, integration: Float64Array | undefined): Omit<F, 'integration'> & { integration: Float64Array } {
  return { ...frame, integration: integration ?? new Float64Array(0) }
}
