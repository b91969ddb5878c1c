// Node only: folders that hold answers wherever they end up. A run folder holds final episodes (they solve samples),
// an HTML report the ground truth of every sample it shows, a demonstrations folder the scripts that solve them; they
// get copied, moved and generated (a CI artifact downloaded into the project, a report published from `docs/`,
// `awb fixtures --out` inside a project), out of the folders a run knows to protect. So each is marked where it is
// written, and every reader of a run (the serve guard, Vite's file checks, the agent bundler) refuses anything inside
// a marked folder, wherever it lies.
import { existsSync, realpathSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'

/** The mark: a plain file (no leading dot: CI artifact uploads drop hidden files). */
export const ANSWERS_MARKER = 'AWB-ANSWERS.txt'

const MARKER_TEXT = 'This folder holds answers of the assembly benchmark: final episodes or scripts that solve samples, or ground truth.\n' +
  'assembly-world-bench keeps every folder with this file out of its agents\' reach: no page or agent bundle of a run reads it.\n' +
  'Keep the file with the folder when you copy or move it.\n'

/** Marks `dir` (which exists) as holding answers. */
export async function markAnswersFolder(dir: string): Promise<void> {
  await writeFile(join(dir, ANSWERS_MARKER), MARKER_TEXT)
}

/**
 * Whether `dir` holds answers: it carries the mark, or it is a run folder of a version that did not mark its runs
 * (run.json beside seals.jsonl).
 */
export function isAnswersFolder(dir: string): boolean {
  return existsSync(join(dir, ANSWERS_MARKER)) || (existsSync(join(dir, 'run.json')) && existsSync(join(dir, 'seals.jsonl')))
}

/**
 * What `isAnswersFolder` said of a folder: a yes for good (a mark that disappears later still refuses, which is safe),
 * a no for NO_CACHE_MS (a folder marked meanwhile is refused soon after). Every module request of a page asks, each
 * for several path forms, so the file system is not asked each time.
 */
const answers = new Map<string, boolean | number>()
const NO_CACHE_MS = 2_000

function cachedIsAnswersFolder(dir: string): boolean {
  const known = answers.get(dir)
  if (known === true) return true
  if (typeof known === 'number' && Date.now() - known < NO_CACHE_MS) return false
  const marked = isAnswersFolder(dir)
  answers.set(dir, marked || Date.now())
  return marked
}

/**
 * Whether `path` (absolute, a file or folder, existing or not) is a marked folder or lies inside one, as written and
 * through its symlinks (a link in the project into a copied run names no marked folder on its way).
 */
export function insideAnswersFolder(path: string): boolean {
  const written = resolve(path)
  if (chainIsMarked(written)) return true
  const real = realPathOf(written)
  return real !== written && chainIsMarked(real)
}

function chainIsMarked(path: string): boolean {
  let dir = path
  for (;;) {
    if (cachedIsAnswersFolder(dir)) return true
    const parent = dirname(dir)
    if (parent === dir) return false
    dir = parent
  }
}

/** What realPathOf found, and when: links change rarely, module requests come by the hundred (same time as a no). */
const realPaths = new Map<string, { real: string; at: number }>()

/** `path` through its symlinks: its own real path, or its nearest existing ancestor's with the rest appended. */
function realPathOf(path: string): string {
  const known = realPaths.get(path)
  if (known !== undefined && Date.now() - known.at < NO_CACHE_MS) return known.real
  const real = uncachedRealPathOf(path)
  realPaths.set(path, { real, at: Date.now() })
  return real
}

function uncachedRealPathOf(path: string): string {
  let existing = path
  for (;;) {
    try {
      return join(realpathSync.native(existing), relative(existing, path))
    } catch {
      const parent = dirname(existing)
      if (parent === existing) return path
      existing = parent
    }
  }
}
