// The order the suite's files start in: each project's files slowest first, by the seconds each took in a CI run
// (test/file-seconds.json; `node scripts/test-legs.mjs --record-durations` rewrites it from the legs' reports).
// Vitest orders by its results cache, which a clean clone lacks, and falls back to file size: on CI the longest
// integration files started last and ran alone at the end. Longest first packs two workers evenly.
import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const ROOT = resolve(import.meta.dirname, '..')
const SECONDS = JSON.parse(readFileSync(resolve(ROOT, 'test', 'file-seconds.json'), 'utf8')) as { seconds: Record<string, number> }

/** Seconds a file took last time it was recorded (a leg's copy names it by its path in the checkout); 0 when unknown. */
export function recordedSeconds(moduleId: string, root = ROOT): number {
  const path = relative(root, moduleId).split('\\').join('/')
  return SECONDS.seconds[path] ?? 0
}

export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order first: projects one after another (it runs a project's run of files as one group, so mixing
    // projects leaves a worker idle at each switch), and its cached durations where it has them.
    const ordered = await super.sort(files)
    const projectRank = new Map<string, number>()
    for (const spec of ordered) if (!projectRank.has(spec.project.name)) projectRank.set(spec.project.name, projectRank.size)
    return [...ordered].sort((a, b) => (projectRank.get(a.project.name)! - projectRank.get(b.project.name)!) || recordedSeconds(b.moduleId, b.project.config.root) - recordedSeconds(a.moduleId, a.project.config.root))
  }
}
