// `--shard` over the block projects, with the installed Vitest's own shard code: every block projects runs the same
// file, so Vitest's split depends on the order it lists the projects in; the plugin's sequencer makes it a partition
// that is the same in every process.
import { describe, expect, it } from 'vitest'
import { BaseSequencer, type TestSequencerConstructor, type TestSpecification, type Vitest } from 'vitest/node'
import { stableShards } from '../../../plugin/vitest-compat/index.ts'

const ROOT = '/project'
const BLOCKS = ['partnet-none', 'partnet-final-image', 'ikea-manualbook', 'assemblybench-manualbook', 'fantastic-breaks-none']
const SUITE = '/project/node_modules/assembly-world-bench/suites/benchmark-block.ts'

/** A block project's one test specification, as Vitest lists it (the fields its shard code reads). */
const blockSpec = (block: string) => ({ project: { name: block }, moduleId: SUITE }) as unknown as TestSpecification

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]]
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map(rest => [item, ...rest]))
}

/** The blocks shard `index`/`count` gets when Vitest lists the projects in `order`. */
async function shardOf(Sequencer: TestSequencerConstructor, order: readonly string[], index: number, count: number): Promise<string[]> {
  const sequencer = new Sequencer({ config: { root: ROOT, shard: { index, count } } } as unknown as Vitest)
  return (await sequencer.shard(order.map(blockSpec))).map(spec => spec.project.name)
}

describe('--shard over the block projects', () => {
  it('with Vitest\'s own sequencer, depends on the order the projects are listed in (the bug this guards against)', async () => {
    const firstShards = new Set<string>()
    for (const order of permutations(BLOCKS)) firstShards.add((await shardOf(BaseSequencer, order, 1, 2)).sort().join(','))
    expect(firstShards.size).toBeGreaterThan(1)
  })

  it.each([2, 3, 5])('with the plugin\'s sequencer, splits the blocks into %i disjoint shards, the same whatever the listing order', async (count) => {
    const Sequencer = stableShards()
    const expected: string[][] = []
    for (let index = 1; index <= count; index++) expected.push(await shardOf(Sequencer, BLOCKS, index, count))
    expect(expected.flat().sort()).toEqual([...BLOCKS].sort())
    for (const order of permutations(BLOCKS)) {
      for (let index = 1; index <= count; index++) expect(await shardOf(Sequencer, order, index, count)).toEqual(expected[index - 1])
    }
  })

  it('keeps a sequencer the user configured, for sorting and for sharding', async () => {
    class UserSequencer extends BaseSequencer {
      override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
        return [...files].reverse()
      }

      override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
        return (await super.shard(files)).filter(spec => spec.project.name !== 'fantastic-breaks-none')
      }
    }
    const sequencer = new (stableShards(UserSequencer))({ config: { root: ROOT, shard: { index: 1, count: 1 } } } as unknown as Vitest)
    expect(sequencer).toBeInstanceOf(UserSequencer)
    expect((await sequencer.sort(BLOCKS.map(blockSpec))).map(spec => spec.project.name)).toEqual([...BLOCKS].reverse())
    expect((await sequencer.shard(BLOCKS.map(blockSpec))).map(spec => spec.project.name)).not.toContain('fantastic-breaks-none')
  })
})
