// A recorded run for benchmarks: every awb-mini sample (or one block) replays its demonstration in the Node runtime and
// its final episode is written as a completed attempt.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { decodeEpisode, encodeEpisode } from '../src/episode/index.ts'
import { openPackage, readEpisode } from '../src/package/index.ts'
import { loadMujoco, WorldRuntime } from '../src/world/index.ts'
import { writeRun, type FixtureAttempt } from '../test/helpers/run-fixture.ts'

export const BENCH_PACKAGE = 'fixtures/awb-mini'
const DEMONSTRATIONS = 'fixtures/demonstrations'

/** Writes the run into `dir` (which must not exist) and returns `dir`. */
export async function replayDemonstrationsRun(dir: string, options: { only?: string | undefined } = {}): Promise<string> {
  const pkg = await openPackage(BENCH_PACKAGE)
  const mujoco = await loadMujoco()
  const attempts: FixtureAttempt[] = []
  for (const block of pkg.blocks.filter(b => options.only === undefined || b.name === options.only)) {
    for (const sample of block.samples) {
      const runtime = WorldRuntime.open({ mujoco, episode: await decodeEpisode(await readEpisode(pkg, sample)) })
      const script = await readFile(join(DEMONSTRATIONS, block.name, `${sample.slug}.calls.jsonl`), 'utf8')
      for (const line of script.split('\n').filter(l => l.trim() !== '')) {
        const call = JSON.parse(line) as { name: string; arguments: Record<string, unknown> }
        await runtime.callTool(call.name, call.arguments)
      }
      attempts.push({ block: block.name, sampleId: sample.id, finalEpisode: await encodeEpisode(runtime.exportEpisode()) })
    }
  }
  await writeRun({ dir, attempts })
  return dir
}
