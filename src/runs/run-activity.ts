// What a run's records say about it without its process: the package it was made on and when it last wrote anything.
// Reads only; whether its process lives is run-process.ts's question.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod'
import { isNotFoundError } from '../shared/fs-errors.ts'
import type { RunJson } from './schemas.ts'
import type { RunRecord } from './read-run.ts'

// run.json `benchmark.local` (the opened package's root, run-writer.ts) and `options.benchmark` (the option as given,
// resolved): other runners may write either, so both are read; `benchmark.local` first, as what was actually opened.
const RecordedBenchmarkSchema = z.looseObject({
  benchmark: z.looseObject({ local: z.string().min(1) }).optional().catch(undefined),
  options: z.looseObject({ benchmark: z.string().min(1).optional().catch(undefined) }).optional().catch(undefined),
})

/** The package directory a run recorded in run.json (`benchmark.local`, else `options.benchmark`); undefined if none. */
export function recordedBenchmark(json: RunJson): string | undefined {
  const parsed = RecordedBenchmarkSchema.safeParse(json)
  if (!parsed.success) return undefined
  return parsed.data.benchmark?.local ?? parsed.data.options?.benchmark
}

/**
 * When the run last recorded anything (ms since the epoch): the newest modification time of run.json, the run's own
 * files and every sample's files, or a later `finished_at` in a result.json (a copied run has new mtimes, and a file
 * may be written after the time it records). Undefined when nothing can be dated. A run killed with `kill -9` never
 * writes `finished_at` in run.json, so this is where its elapsed time ends.
 */
export async function lastRecordTime(run: RunRecord): Promise<number | undefined> {
  const times: number[] = []
  const addTimesIn = async (dir: string): Promise<void> => {
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (error) {
      if (isNotFoundError(error)) return
      throw error
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue
      try {
        times.push((await stat(join(dir, entry.name))).mtimeMs)
      } catch (error) {
        // Removed between the listing and the stat: it no longer dates anything.
        if (!isNotFoundError(error)) throw error
      }
    }
  }
  await addTimesIn(run.dir)
  for (const attempt of run.attempts) {
    await addTimesIn(attempt.dir)
    const finished = attempt.result?.finished_at
    if (typeof finished === 'string' && Number.isFinite(Date.parse(finished))) times.push(Date.parse(finished))
  }
  // A loop, not Math.max(...times): a long run has more files than a call may take arguments.
  let newest: number | undefined
  for (const time of times) if (newest === undefined || time > newest) newest = time
  return newest
}
