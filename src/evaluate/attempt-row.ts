// Turns one selected attempt into its metrics.jsonl row (scoring.md §9): checks, scoring, error rows; no output.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { findSample, type BenchmarkPackage, type PackageBlock } from '../package/index.ts'
import type { AttemptRecord, SelectedAttempt } from '../runs/index.ts'
import { sha256Hex } from '../episode/index.ts'
import { isNotFoundError } from '../shared/fs-errors.ts'
import { splitJsonLines } from '../shared/json-lines.ts'
import { EvaluateError } from './errors.ts'
import { errorFields, type BaseFields, type MetricsRow } from './rows/index.ts'
import type { SampleScorer } from './scorer/create-scorer.ts'
import { scoreFinalEpisode } from './score-final-episode.ts'

const FINAL_EPISODE = 'final.episode.zip'

/**
 * Scores `selected` against `pkg`; never throws for a broken sample (it becomes an error row). An attempt whose seal
 * fails is an error row too, PA 0 and SR 0, built from nothing its records say: it counts as a failure rather than
 * leaving the rows, so that breaking a failed sample's records can never raise its block's SR.
 */
export async function attemptRow(selected: SelectedAttempt, pkg: BenchmarkPackage, scorer: SampleScorer): Promise<MetricsRow> {
  const attempt = selected.attempt
  if (selected.seal?.flagged === true) {
    const untrusted = baseFields({ block: selected.block, sampleId: selected.sampleId, run: attempt?.run ?? null })
    return { ...untrusted, ...errorFields(new EvaluateError('EVALUATE_SEAL_BROKEN', `${selected.seal.message ?? 'its seal fails'}; its records are not trusted, so it is not scored: run the sample again (AWB_RESUME re-runs it)`)) }
  }
  const base = await recordedBaseFields(selected.block, selected.sampleId, attempt)
  if (selected.kind === 'error') return { ...base, ...errorFields(new EvaluateError('EVALUATE_ATTEMPT_UNUSABLE', selected.error)) }
  try {
    return { ...base, ...(await scoreAttempt(selected.block, selected.sampleId, selected.attempt, pkg, scorer)) }
  } catch (error) {
    return { ...base, ...errorFields(error) }
  }
}

async function scoreAttempt(blockName: string, sampleId: string, attempt: AttemptRecord, pkg: BenchmarkPackage, scorer: SampleScorer) {
  const unusable = (message: string) => new EvaluateError('EVALUATE_ATTEMPT_UNUSABLE', message, { file: attempt.dir })
  if (attempt.recordError !== undefined) throw unusable(attempt.recordError)
  const block = pkg.blocks.find(candidate => candidate.name === blockName)
  if (block === undefined) throw new EvaluateError('EVALUATE_RUN_MISMATCH', `block ${blockName} is not in the package; evaluate with the package the run was made on`, { file: attempt.dir })
  const sample = findSample(pkg, blockName, sampleId)
  await checkRunMatchesPackage(attempt, block, sample.episodeSha256, sample.episodeId, sample.parts)
  const result = attempt.result!
  if (result.status === 'running') throw unusable('Latest attempt is unfinished (result.json status "running"); resume the run before evaluating it')
  if (result.archive?.status !== 'saved') throw unusable(`the attempt has no saved export (archive status ${JSON.stringify(result.archive?.status ?? null)})`)
  const finalPath = join(attempt.dir, FINAL_EPISODE)
  const finalBytes = await readFile(finalPath).then(bytes => new Uint8Array(bytes), () => { throw unusable(`${FINAL_EPISODE} is missing although result.json says it was saved`) })
  const finalSha256 = await sha256Hex(finalBytes)
  const recorded = result.archive.sha256
  if (recorded != null && recorded !== finalSha256) throw new EvaluateError('EVALUATE_HASH_CHANGED', `${FINAL_EPISODE} has SHA-256 ${finalSha256} but result.json archive.sha256 records ${recorded}`, { file: finalPath })

  const score = await scoreFinalEpisode({ pkg, sample, finalBytes, finalSource: finalPath, scorer })
  // The archive must not change while it is scored (scoring.md §3.4 rule 3).
  const after = await sha256Hex(new Uint8Array(await readFile(finalPath)))
  if (after !== finalSha256) throw new EvaluateError('EVALUATE_HASH_CHANGED', `${FINAL_EPISODE} changed while it was being scored`, { file: finalPath })
  return score
}

/** The run must have been made on this package: same task text, reference mode and initial episode (§9.1 rule 5). */
async function checkRunMatchesPackage(attempt: AttemptRecord, block: PackageBlock, episodeSha256: string, episodeId: string, parts: number): Promise<void> {
  const mismatch = (message: string) => new EvaluateError('EVALUATE_RUN_MISMATCH', message, { file: attempt.run })
  const runJson = JSON.parse(await readFile(join(attempt.run, 'run.json'), 'utf8')) as { tasks?: Record<string, string>; reference_modes?: Record<string, string> }
  const task = runJson.tasks?.[block.name]
  if (task !== undefined && task !== block.taskText) throw mismatch(`Run task differs from official task for block ${block.name}`)
  const mode = runJson.reference_modes?.[block.name]
  if (mode !== undefined && mode !== block.referenceMode) throw mismatch(`Run reference mode ${mode} differs from the official ${block.referenceMode} for block ${block.name}`)
  const input = attempt.input
  if (input === undefined) return
  if (input.sha256 !== undefined && input.sha256 !== episodeSha256) throw mismatch(`input.json sha256 ${input.sha256} is not the package's initial episode ${episodeSha256}`)
  if (input.episode_id !== undefined && input.episode_id !== episodeId) throw mismatch(`input.json episode_id ${input.episode_id} is not the package's ${episodeId}`)
  if (input.parts !== undefined && input.parts !== parts) throw mismatch(`input.json parts ${input.parts} is not the package's ${parts}`)
  if (input.identity !== undefined && JSON.stringify(sortKeys(input.identity)) !== JSON.stringify(sortKeys(block.identity))) throw mismatch('input.json identity differs from the package config identity')
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map(k => [k, sortKeys((value as Record<string, unknown>)[k])]))
  return value
}

/** What a row's base fields are made of: the sample, the run holding its attempt, and the attempt's own account. */
export interface BaseFieldsInput {
  block: string
  sampleId: string
  /** The run directory holding the attempt, or null when there is none. */
  run: string | null
  /** Unknown figures (absent or null) are null in the row. */
  durationSeconds?: number | null | undefined
  usage?: BaseFields['usage'] | undefined
  costUsd?: number | null | undefined
  toolCalls?: number | null | undefined
  /** False while the attempt is still `running`; default true. */
  isFinished?: boolean | undefined
}

/**
 * A row's base fields (scoring.md §9.2): the one place they are assembled, for rows scored in a run
 * (`BenchmarkSession`), rows of recorded attempts (`awb eval`) and error rows of samples that never finished.
 */
export function baseFields(input: BaseFieldsInput): BaseFields {
  return {
    block: input.block,
    sample_id: input.sampleId,
    run: input.run,
    duration_seconds: input.durationSeconds ?? null,
    usage: input.usage ?? null,
    cost_usd: input.costUsd ?? null,
    tool_calls: input.toolCalls ?? null,
    attempt_finished: input.isFinished ?? true,
  }
}

/** The base fields of a recorded attempt, from its result.json (tool calls counted from its log when unrecorded). */
async function recordedBaseFields(block: string, sampleId: string, attempt: AttemptRecord | undefined): Promise<BaseFields> {
  const result = attempt?.result
  return baseFields({
    block,
    sampleId,
    run: attempt?.run ?? null,
    durationSeconds: result?.duration_seconds,
    usage: result?.execution?.usage,
    costUsd: result?.execution?.cost_usd,
    toolCalls: result?.tool_calls ?? result?.native_webmcp_call_count ?? (attempt === undefined ? null : await countToolCalls(attempt.dir)),
    isFinished: result?.status !== 'running',
  })
}

async function countToolCalls(dir: string): Promise<number | null> {
  const path = join(dir, 'conversation.jsonl')
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    // No conversation is no count; one that cannot be read is a failure the user must see.
    if (isNotFoundError(error)) return null
    throw new EvaluateError('EVALUATE_ATTEMPT_UNUSABLE', `cannot read ${path} (${error instanceof Error ? error.message : String(error)}); check its permissions`, { file: path, cause: error })
  }
  let count = 0
  // A torn line (error set) is not a tool call; conversation.jsonl is informational here.
  for (const { value } of splitJsonLines(text)) {
    if (value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'tool_call') count++
  }
  return count
}
