// Writes run directories in the reference layout (runner.md §5) for tests; no scoring, no episodes unless given.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface FixtureAttempt {
  block: string
  sampleId: string
  /** result.json content; defaults to a completed attempt with a saved archive. */
  result?: Record<string, unknown>
  /** Extra input.json fields (merged over block and sample_id). */
  input?: Record<string, unknown>
  /** Bytes of final.episode.zip, when the attempt saved one. */
  finalEpisode?: Uint8Array
}

export interface FixtureRun {
  dir: string
  sourceRun?: string | null
  tasks?: Record<string, string>
  referenceModes?: Record<string, string>
  attempts: FixtureAttempt[]
}

export const COMPLETED_RESULT = {
  status: 'completed',
  execution: { status: 'completed', final_answer: '{"status":"completed"}', usage: null, cost_usd: null },
  archive: { status: 'saved', sha256: null, calls: 1, error: null },
  duration_seconds: 12.5,
  tool_calls: 3,
} as const

/** Creates `run.dir` with run.json and one sample folder per attempt. Returns the directory. */
export async function writeRun(run: FixtureRun): Promise<string> {
  const selection: Record<string, string[]> = {}
  for (const attempt of run.attempts) (selection[attempt.block] ??= []).push(attempt.sampleId)
  await mkdir(run.dir, { recursive: true })
  await writeJson(join(run.dir, 'run.json'), {
    version: 1,
    kind: 'assembly-world-bench',
    status: 'completed',
    started_at: '2026-01-01T00:00:00.000Z',
    source_run: run.sourceRun ?? null,
    selection,
    tasks: run.tasks ?? {},
    reference_modes: run.referenceModes ?? {},
  })
  for (const attempt of run.attempts) {
    const dir = join(run.dir, 'blocks', attempt.block, 'samples', attempt.sampleId.split('/').join('--'))
    await mkdir(dir, { recursive: true })
    await writeJson(join(dir, 'input.json'), { block: attempt.block, sample_id: attempt.sampleId, ...attempt.input })
    await writeJson(join(dir, 'result.json'), attempt.result ?? COMPLETED_RESULT)
    await writeFile(join(dir, 'conversation.jsonl'), '')
    if (attempt.finalEpisode !== undefined) await writeFile(join(dir, 'final.episode.zip'), attempt.finalEpisode)
  }
  return run.dir
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`)
}
